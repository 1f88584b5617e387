"""The errors Keras 3 raises for a missing or damaged ``.keras`` / ``.weights.h5`` file, of
Keras's type with Keras's text, then the course's line naming the file and the fix (in the
learner's language: the ``keras`` catalogue)."""
from __future__ import annotations

import zipfile

from sim.keras import _errors


def _text(keras_text, key, **fields):
    return _errors.msg(key, keras_text, **fields)


def not_a_keras_zip(path):
    """Keras's text for a ``.keras`` path that is missing or not a zip (empty, truncated...)."""
    import os
    key = "keras_file_missing" if not os.path.exists(path) else "keras_file_unreadable"
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


def mismatch(path, error):
    return ValueError(_text(str(error), "weights_file_mismatch", path=path))
