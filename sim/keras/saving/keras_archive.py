"""The Keras 3 ``.keras`` file: a zip of ``metadata.json``, ``config.json`` and
``model.weights.h5`` (stored, in that order, as Keras 3 writes it), written atomically.

The whole archive is built in a temporary file beside the target and renamed over it
(sim/storage/safe_io.py), so a save killed at any instant leaves the previous file whole. Reading is
eager: every member's checksum is checked before the model is rebuilt.
"""
from __future__ import annotations

import datetime
import io
import json
import os
import zipfile

import h5py

from sim.storage import safe_io
from sim.keras.saving import file_errors, model_config, model_from_config, weights_h5

KERAS_VERSION = "3.15.1"        # the Keras TensorFlow 2.21 installs, whose format this is
TF_KERAS_VERSION = "2.21.0"     # tf-keras's, under TF_USE_LEGACY_KERAS=1
CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.h5"


def metadata() -> dict:
    from sim.keras.version import keras_major
    return {"keras_version": KERAS_VERSION if keras_major() == 3 else TF_KERAS_VERSION,
            "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}


def save_model(model, filepath) -> str:
    """Write ``model`` (config, compile state, weights, optimizer variables) to ``filepath``."""
    if not model.built:
        import warnings
        warnings.warn("You are saving a model that has not yet been built. It might not contain "
                      "any weights yet. Consider building the model first by calling it on some "
                      "data.", stacklevel=3)
    config = json.dumps(model_config.model(model)).encode()
    weights = weights_h5.to_bytes(model)
    meta = json.dumps(metadata()).encode()

    def write(f):
        with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.writestr(METADATA, meta)
            archive.writestr(CONFIG, config)
            archive.writestr(WEIGHTS, weights)
    return safe_io.atomic_write(os.fspath(filepath), write)


# Keras 3's guard against decompression bombs (saving_lib._reject_zip_extract_bomb): a member
# that declares more than this floor and more than MAX_EXPANSION times what it stores is refused.
BOMB_FLOOR_BYTES = 1 << 28          # 256 MiB
MAX_EXPANSION = 100


def read_members(path) -> dict:
    """{member name: bytes} of the members a ``.keras`` file's load reads (config, metadata,
    weights), every checksum checked; the others are never read, and a bomb is refused first."""
    from sim.keras.saving import h5_guard
    h5_guard.regular_file(path, lambda reason: file_errors.not_a_keras_zip(path))
    if not zipfile.is_zipfile(path):
        raise file_errors.not_a_keras_zip(path)
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.file_size > BOMB_FLOOR_BYTES and \
                        info.file_size > MAX_EXPANSION * info.compress_size:
                    raise file_errors.refused(path, (
                        f"Not allowed: archive member '{info.filename}' declares "
                        f"{h5_guard.readable_size(info.file_size)} but only "
                        f"{h5_guard.readable_size(info.compress_size)} are stored on disk; "
                        "refusing to extract a potential decompression bomb."))
            names = set(archive.namelist())
            return {name: archive.read(name) for name in (METADATA, CONFIG, WEIGHTS)
                    if name in names}
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise file_errors.bad_crc(path, e) from None


def _config(path, members) -> dict:
    if CONFIG not in members:
        raise file_errors.member_missing(path, CONFIG)
    try:
        return json.loads(members[CONFIG].decode("utf-8", errors="replace"))
    except json.JSONDecodeError as e:
        raise file_errors.bad_json(path, CONFIG, e) from None


def load_weights_from(model, path, members, skip_mismatch=False) -> None:
    """The zip's weights into ``model``, with the file named in every error."""
    if WEIGHTS not in members:
        raise file_errors.no_weights_member(path)
    try:
        weights_h5.read(model, io.BytesIO(members[WEIGHTS]), skip_mismatch)
    except OSError as e:
        raise file_errors.not_hdf5(f"{path}/{WEIGHTS}", e) from None
    except (ValueError, KeyError) as e:
        raise file_errors.mismatch(path, e) from None
    except RuntimeError as e:                   # h5py's own, on a damaged file
        raise file_errors.not_hdf5(f"{path}/{WEIGHTS}", OSError(str(e))) from None


def load_model(filepath, custom_objects=None, compile=True):
    path = os.fspath(filepath)
    members = read_members(path)
    config = _config(path, members)
    model = model_from_config.model_from_config(config, custom_objects, compile=compile)
    load_weights_from(model, path, members)
    return model


__all__ = ["save_model", "load_model", "h5py"]
