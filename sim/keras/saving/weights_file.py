"""``model.save_weights("x.weights.h5")`` / ``load_weights``: Keras 3's weights-only HDF5 file
(the layout of weights_h5.py), written atomically; ``load_weights`` also reads the weights of
a ``.keras`` file, as Keras 3 does."""
from __future__ import annotations

import os

from sim.storage import safe_io
from sim.keras.saving import file_errors, keras_archive, legacy_h5_weights, weights_h5


def save_weights(model, filepath) -> str:
    if not model.built:
        raise ValueError("You are saving a model that has not yet been built. Try building the "
                         "model first by calling it on some data or by using `build()`.")
    data = weights_h5.to_bytes(model)
    return safe_io.atomic_write(os.fspath(filepath), lambda f: f.write(data))


def save_legacy_weights(model, filepath) -> str:
    """tf-keras's ``save_weights("w.h5")`` (legacy_h5_weights.py), written atomically."""
    import io
    buffer = io.BytesIO()
    legacy_h5_weights.write(model, buffer)
    data = buffer.getvalue()
    return safe_io.atomic_write(os.fspath(filepath), lambda f: f.write(data))


def load_legacy_model(filepath, custom_objects=None, compile=True):
    """``load_model("m.h5")`` (legacy_h5_model.py), with the file named in every error."""
    from sim.keras.saving import legacy_h5_model
    path = os.fspath(filepath)
    try:
        _check_signature(path)
        return legacy_h5_model.load(path, custom_objects, compile)
    except OSError as e:
        raise file_errors.not_hdf5(path, e) from None
    except (ValueError, KeyError) as e:
        raise file_errors.mismatch(path, e) from None
    except RuntimeError as e:                   # h5py's own, on a damaged file
        raise file_errors.not_hdf5(path, OSError(str(e))) from None


def _check_signature(path):
    with open(path, "rb") as f:
        if f.read(8) != b"\x89HDF\r\n\x1a\n":
            raise OSError("Unable to synchronously open file (file signature not found)")


def load_weights(model, filepath, legacy=False, skip_mismatch=False) -> None:
    path = os.fspath(filepath)
    if not model.built:
        raise ValueError("You are loading weights into a model that has not yet been built. Try "
                         "building the model first by calling it on some data or by using "
                         "`build()`.")
    if path.endswith(".keras"):
        if not os.path.exists(path):      # Keras 3 opens it as a zip, tf-keras as HDF5: both say so
            raise file_errors.not_hdf5(path, FileNotFoundError(
                2, "No such file or directory", path))
        keras_archive.load_weights_from(model, path, keras_archive.read_members(path),
                                        skip_mismatch)
        return
    try:
        _check_signature(path)
        if legacy:
            legacy_h5_weights.read(model, path)
        else:
            weights_h5.read(model, path, skip_mismatch)
    except FileNotFoundError as e:
        raise file_errors.not_hdf5(path, e) from None
    except OSError as e:
        raise file_errors.not_hdf5(path, e) from None
    except (ValueError, KeyError) as e:
        raise file_errors.mismatch(path, e) from None
    except RuntimeError as e:                   # h5py's own, on a damaged file
        raise file_errors.not_hdf5(path, OSError(str(e))) from None
