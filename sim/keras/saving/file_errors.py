"""The errors Keras 3 raises for a missing or damaged ``.keras`` / ``.weights.h5`` file, of
Keras's type with Keras's text, then the course's line naming the file and the fix (in the
learner's language: the ``keras`` catalogue)."""
from __future__ import annotations

import zipfile

from sim.keras import _errors


def _text(keras_text, key, **fields):
    return _errors.msg(key, keras_text, **fields)


def not_a_keras_zip(path):
    """Keras's error for a ``.keras`` path that is missing or not a zip (empty, truncated...):
    Keras 3's ValueError; tf-keras tries the file as HDF5 and raises OSError."""
    import os
    from sim.keras.version import keras_major
    missing = not os.path.exists(path)
    key = "keras_file_missing" if missing else "keras_file_unreadable"
    if keras_major() == 2:
        text = (f"No file or directory found at {path}" if missing else
                "Unable to synchronously open file (file signature not found)")
        return OSError(_text(text, key, path=path))
    return ValueError(_text(f"File not found: filepath={path}. Please ensure the file is an "
                            "accessible `.keras` zip file.", key, path=path))


def member_missing(path, member):
    return KeyError(_text(f"There is no item named '{member}' in the archive", "keras_file_lacks",
                          path=path, member=member))


def no_weights_member(path):
    return ValueError(_text("Expected a model.weights.h5 or model.weights.npz file.",
                            "keras_file_lacks", path=path, member="model.weights.h5"))


def bad_json(path, member, error):
    import json
    return json.JSONDecodeError(_text(error.msg, "keras_file_bad_json", path=path, member=member),
                                error.doc, error.pos)


def bad_crc(path, error):
    return zipfile.BadZipFile(_text(str(error), "keras_file_crc", path=path))


def not_hdf5(path, error):
    kind = FileNotFoundError if isinstance(error, FileNotFoundError) else OSError
    key = "weights_not_found" if kind is FileNotFoundError else "weights_file_unreadable"
    return kind(_text(str(error), key, path=path))


REFUSED = ("Not allowed:", "Invalid H5 file", "Invalid path in H5 file")


def refused(path, keras_text):
    """Keras 3's ValueError for a file that points outside itself, is a bomb or is damaged in its
    HDF5 structure, then the course's line: not a model mismatch, a file not to load."""
    return ValueError(_text(keras_text, "file_refused", path=path))


def explained(error):
    """``error`` already names its file and what is wrong: mismatch() passes it through."""
    error._sim_explained = True
    return error


def damaged_part(path, part, error):
    """A part of the file that cannot be read (an optimizer weight its names list lacks...):
    Keras's class and text, then the course's line saying the file is damaged, not the model."""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return explained(type(error)(_text(text, "file_damaged", path=path, part=part)))


def mismatch(path, error):
    """A file whose weights do not fit the model: ValueError, or (tf-keras reading a file
    without the groups it expects) KeyError, as Keras raises them. A file refused for what it
    is (h5_guard.py) says so instead."""
    if getattr(error, "_sim_explained", False):
        return error
    if isinstance(error, ValueError) and any(mark in str(error) for mark in REFUSED):
        return refused(path, str(error))
    if isinstance(error, KeyError):
        return KeyError(_text(str(error.args[0]), "weights_file_mismatch", path=path))
    return ValueError(_text(str(error), "weights_file_mismatch", path=path))


def prefix_missing(path, prefix):
    """``load_weights`` of a checkpoint prefix with nothing there, as TensorFlow 2.21 answers it:
    tf-keras's NotFoundError from the checkpoint reader; Keras 3 reads no TensorFlow checkpoints
    and refuses the path as a format (ValueError). Then the course's line naming the file."""
    from sim.keras.version import keras_major
    if keras_major() == 2:
        from sim.engine.errors import NotFoundError
        return NotFoundError(None, None, _text(
            "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for "
            f"{prefix}", "weights_not_found", path=path))
    return ValueError(_text(
        f"File format not supported: filepath={prefix}. Keras 3 only supports V3 `.keras` files, "
        "`.weights.h5` files, legacy H5 format files (`.h5` extension), or Orbax checkpoints.",
        "weights_not_found", path=path))
