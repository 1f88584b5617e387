"""Checkpoint files that survive a kill at any instant and fail clearly when damaged.

Writing: a file goes to a temporary name beside its target (``.<name>.tmp-<pid>-<random>``,
created exclusively by ``mkstemp``, so no one can predict or claim it), is flushed to disk, then
renamed over the target (``os.replace`` is atomic), so a reader sees the old file or the new one,
never half of one, and two writers of one path both succeed, the last rename winning. A save
killed before its rename leaves its temporary file behind; a later save to the same target
removes it, and only it: a regular file of this user, of this name's pattern, whose process
has ended. Files it cannot prove are its own (another user's, a directory, a running save's,
any other name) are left alone, and a file it cannot remove never stops a save.

Reading: ``read_npz`` loads a ``.npz`` written with a ``__meta__`` JSON entry, eagerly (a
zip member's CRC is only checked when it is read), and turns every way a file can be wrong
(missing, empty, truncated, bit flips, a ``.npy``, pickled or foreign data, no metadata, a
crafted header, a FIFO) into TensorFlow's error type: ``NotFoundError`` for a missing file,
``PermissionDeniedError`` for an unreadable one, ``DataLossError`` for a damaged or foreign
one, naming the file and what is wrong. Never pickles, and never NumPy's advice to load with
``allow_pickle``. Memory is bounded by the file's size: members must be stored uncompressed
(``np.savez``, never a bomb) and each ``.npy`` header's declared size must equal the bytes
the archive holds for it, checked before the data is read.
"""
from __future__ import annotations

import glob
import json
import math
import os
import re
import stat
import struct
import tempfile
import zipfile
import zlib

import numpy as np

TEMP_MARK = ".tmp-"


def temp_pattern(path: str) -> str:
    """The glob matching the temporary files of saves to ``path``."""
    directory, name = os.path.split(os.path.abspath(path))
    return os.path.join(glob.escape(directory), "." + glob.escape(name) + TEMP_MARK + "*")


def _temp_prefix(name: str) -> str:
    return f".{name}{TEMP_MARK}{os.getpid()}-"


def _owner_ended(candidate: str, name: str) -> bool:
    """Whether ``candidate`` is a temporary file this user's save to ``name`` left behind, and
    the process that made it (named in it) has ended."""
    match = re.fullmatch(re.escape(f".{name}{TEMP_MARK}") + r"(\d{1,10})-[A-Za-z0-9_]{8}",
                         os.path.basename(candidate))
    if not match:
        return False
    try:
        info = os.lstat(candidate)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        return False
    pid = int(match.group(1))
    if pid == os.getpid():
        return False                         # this process's own save (another thread's)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, OSError):
        return False                         # alive (another user's), or not a pid at all
    return False                             # still running: its save is in progress


def remove_stale_temps(path: str) -> None:
    """Delete the temporary files that interrupted saves of this user left for ``path``
    (see the module's docstring); never anything else, and never fail the save."""
    path = os.path.abspath(path)
    name = os.path.basename(path)
    for stale in glob.glob(temp_pattern(path)):
        if _owner_ended(stale, name):
            try:
                os.unlink(stale)
            except OSError:
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
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=_temp_prefix(name))
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


def permission_denied(path):
    """TensorFlow's PermissionDeniedError for a file the user may not read."""
    from sim.engine import errors
    from sim.i18n import t
    return errors.PermissionDeniedError(None, None, t("checkpoint.permission", path=path))


class _Damage(Exception):
    """What is wrong with an archive: a catalogue problem key and its fields."""

    def __init__(self, key, **fields):
        super().__init__(key)
        self.key, self.fields = key, fields


def read_npz(path, required=(), metadata=True):
    """``(meta, {name: array})`` from a checkpoint ``.npz``; clear TensorFlow errors otherwise.

    ``required``: metadata keys the caller needs (their absence is data loss too).
    ``metadata=False``: a plain ``np.savez`` archive, ``meta`` is None. Memory stays bounded
    by the file's size: every array's declared size is checked against the bytes the archive
    holds for it before anything is read, and compressed members are refused."""
    path = os.fspath(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise not_found(path) from None
    except PermissionError:
        raise permission_denied(path) from None
    except (OSError, ValueError) as e:          # a name too long, a symlink loop, a NUL byte
        raise damaged(path, "unreadable", reason=getattr(e, "strerror", None) or str(e)) from None
    if stat.S_ISDIR(info.st_mode):
        raise damaged(path, "is_directory")
    if not stat.S_ISREG(info.st_mode):          # a FIFO would block, /dev/zero never ends
        raise damaged(path, "not_regular")
    if info.st_size == 0:
        raise damaged(path, "empty")
    try:
        with open(path, "rb") as f:
            arrays = _read_members(f, info.st_size)
    except _Damage as d:
        raise damaged(path, d.key, **d.fields) from None
    except PermissionError:
        raise permission_denied(path) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError,
            IndexError, TypeError, NotImplementedError, RuntimeError, OverflowError,
            struct.error):
        raise damaged(path, "corrupt_zip") from None
    if not metadata:
        return None, arrays
    if "__meta__" not in arrays:
        raise damaged(path, "no_metadata")
    try:
        meta = json.loads(str(arrays.pop("__meta__")))
        if not isinstance(meta, dict):
            raise ValueError(meta)
    except (ValueError, RecursionError):
        raise damaged(path, "bad_metadata") from None
    missing = [k for k in required if k not in meta]
    if missing:
        raise damaged(path, "metadata_lacks", keys=", ".join(missing))
    return meta, arrays


def _read_members(f, file_size):
    """``{name: array}`` of the zip archive ``f``; raises ``_Damage`` saying what is wrong."""
    head = f.read(8)
    f.seek(0)
    if head.startswith(b"\x93NUMPY"):
        raise _Damage("single_array")
    if head[:1] == b"\x80":                     # the pickle protocol's first byte
        raise _Damage("pickled")
    if not head.startswith(b"PK"):              # a zip (truncated ones too) starts with PK
        raise _Damage("not_npz")
    arrays, total = {}, 0
    with zipfile.ZipFile(f) as archive:
        for member in archive.infolist():
            if not member.filename.endswith(".npy"):
                raise _Damage("foreign_member", member=member.filename)
            if member.compress_type != zipfile.ZIP_STORED:
                raise _Damage("compressed", member=member.filename)
            total += member.file_size
            if member.file_size != member.compress_size or total > file_size:
                raise _Damage("corrupt_zip")
            with archive.open(member) as stream:
                arrays[member.filename[:-4]] = _read_array(stream, member)
    return arrays


def _read_array(stream, member):
    """One ``.npy`` member, its declared size checked against the bytes it holds first."""
    try:
        version = np.lib.format.read_magic(stream)
        reader = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                  else np.lib.format.read_array_header_2_0)
        shape, fortran_order, dtype = reader(stream)
    except (zipfile.BadZipFile, zlib.error):    # a small member is read (and its CRC checked) whole
        raise _Damage("corrupt_zip") from None
    except Exception as e:              # NumPy's header parser raises many types (TokenError...)
        raise _Damage("bad_header", member=member.filename,
                      reason=(str(e).splitlines() or [type(e).__name__])[0][:120]) from None
    if dtype.hasobject:
        raise _Damage("pickled")
    held = member.file_size - stream.tell()
    declared = math.prod(shape) * dtype.itemsize
    if declared != held:
        raise _Damage("array_size", member=member.filename, declared=declared, held=held)
    data = bytearray(declared)
    if stream.readinto(data) != declared or stream.read(1):     # reaching the end checks the CRC
        raise _Damage("corrupt_zip")
    if dtype.itemsize == 0:
        return np.zeros(shape, dtype)
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran_order else "C")


def checked_array(arrays: dict, key: str, path: str):
    """``arrays[key]``, or DataLossError when the metadata names an array the file lacks."""
    if not isinstance(key, str):                 # metadata of another program (or damaged)
        raise damaged(path, "bad_metadata")
    if key not in arrays:
        raise damaged(path, "array_missing", array=key)
    return arrays[key]
