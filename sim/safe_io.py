"""Checkpoint files that survive a kill at any instant and fail clearly when damaged.

Writing: a file goes to a temporary name beside its target (``.<name>.tmp-<random>``), is
flushed to disk, then renamed over the target (``os.replace`` is atomic), so a reader sees the
old file or the new one, never half of one. A save killed before its rename leaves its
temporary file behind; the next save to the same target removes it first (one writer per target
at a time, as TensorFlow assumes), so at most one temporary file per target exists.

Reading: ``read_npz`` loads a ``.npz`` written with a ``__meta__`` JSON entry, eagerly (a
zip member's CRC is only checked when it is read), and turns every way a file can be wrong
(missing, empty, truncated, bit flips, a ``.npy``, pickled or foreign data, no metadata)
into TensorFlow's error type: ``NotFoundError`` for a missing file, ``DataLossError`` for a
damaged or foreign one, naming the file and what is wrong. Never pickles, and never NumPy's
advice to load with ``allow_pickle``.
"""
from __future__ import annotations

import glob
import json
import os
import tempfile
import zipfile
import zlib

import numpy as np

TEMP_MARK = ".tmp-"


def temp_pattern(path: str) -> str:
    """The glob matching the temporary files of saves to ``path``."""
    directory, name = os.path.split(os.path.abspath(path))
    return os.path.join(glob.escape(directory), "." + glob.escape(name) + TEMP_MARK + "*")


def remove_stale_temps(path: str) -> None:
    """Delete temporary files left by interrupted saves to ``path``, and those of the names
    earlier versions used (``path.tmp``; ``.tmp-*.npz`` beside a weights file)."""
    path = os.path.abspath(path)
    legacy = [path + ".tmp"]
    if path.endswith(".npz"):
        legacy += glob.glob(os.path.join(glob.escape(os.path.dirname(path)), ".tmp-*.npz"))
    for stale in glob.glob(temp_pattern(path)) + legacy:
        try:
            os.unlink(stale)
        except FileNotFoundError:
            pass


def _file_mode() -> int:
    """0666 less the process umask: the mode a plain ``open(path, "w")`` creates. Linux shows
    the umask in /proc; elsewhere it is read by setting it (briefly: umask is process-wide)."""
    try:
        with open("/proc/self/status") as f:
            mask = next(int(line.split()[1], 8) for line in f if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError):
        mask = os.umask(0o077)
        os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: str, write) -> str:
    """Call ``write(binary_file)`` on a temporary file, then move it to ``path`` in one step."""
    path = os.path.abspath(path)
    directory, name = os.path.split(path)
    os.makedirs(directory, exist_ok=True)
    remove_stale_temps(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + name + TEMP_MARK)
    try:
        os.fchmod(fd, _file_mode())   # mkstemp's 0600 -> what open() gives (TensorFlow's files)
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def atomic_savez(path: str, arrays: dict, meta: dict) -> str:
    """``arrays`` and the JSON ``meta`` (key ``__meta__``) in one atomic ``.npz``."""
    packed = dict(arrays, __meta__=np.array(json.dumps(meta, sort_keys=True)))
    return atomic_write(path, lambda f: np.savez(f, **packed))


def not_found(path):
    """TensorFlow's NotFoundError for a checkpoint file that is not there."""
    from sim.engine import errors
    from sim.i18n import t
    # TensorFlow's text when a checkpoint prefix matches no file.
    return errors.NotFoundError(None, None, (
        f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for "
        f"{path}\n" + t("checkpoint.missing_file")))


def damaged(path, problem_key, **fields):
    """TensorFlow's DataLossError for the file at ``path``, with the catalogue's ``problem_key``."""
    from sim.engine import errors
    from sim.i18n import t
    problem = t("checkpoint." + problem_key, **fields)
    return errors.DataLossError(None, None, t("checkpoint.damaged", path=path, problem=problem))


def read_npz(path: str, required=()):
    """``(meta, {name: array})`` from a checkpoint ``.npz``; clear TensorFlow errors otherwise.

    ``required``: metadata keys the caller needs (their absence is data loss too)."""
    if not os.path.exists(path):
        raise not_found(path)
    if os.path.isdir(path):
        raise damaged(path, "is_directory")
    if os.path.getsize(path) == 0:
        raise damaged(path, "empty")
    try:
        # Our own file object: NumPy leaks the one it opens when the archive is unreadable.
        with open(path, "rb") as f, np.load(f, allow_pickle=False) as data:
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise damaged(path, "single_array")
            arrays = {k: data[k] for k in data.files}
    except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error, KeyError,
            IndexError, TypeError, NotImplementedError, RuntimeError) as e:
        raise damaged(path, _diagnose(path, e)) from None
    except AttributeError:       # np.load on a .npy returns an ndarray: no context manager
        raise damaged(path, "single_array") from None
    if "__meta__" not in arrays:
        raise damaged(path, "no_metadata")
    try:
        meta = json.loads(str(arrays.pop("__meta__")))
        if not isinstance(meta, dict):
            raise ValueError(meta)
    except ValueError:
        raise damaged(path, "bad_metadata") from None
    missing = [k for k in required if k not in meta]
    if missing:
        raise damaged(path, "metadata_lacks", keys=", ".join(missing))
    return meta, arrays


def _diagnose(path, exc):
    """Which catalogue problem explains ``exc`` for the file at ``path``."""
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(b"\x93NUMPY"):
        return "single_array"
    if head.startswith(b"PK"):     # an .npz; object arrays inside are pickles
        return "pickled" if "Object arrays" in str(exc) else "corrupt_zip"
    if head[:1] == b"\x80":        # the pickle protocol's first byte
        return "pickled"
    return "not_npz"


def checked_array(arrays: dict, key: str, path: str):
    """``arrays[key]``, or DataLossError when the metadata names an array the file lacks."""
    if key not in arrays:
        raise damaged(path, "array_missing", key=key)
    return arrays[key]
