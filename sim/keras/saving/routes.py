"""Which file format a save or load uses, chosen from the path as the selected Keras does.

Keras 3: ``.keras`` is the native zip, ``.weights.h5`` the weights-only HDF5, any other
``.h5`` a ValueError for ``save_weights`` (Keras's own) and tf-keras's HDF5 weights for
``load_weights``; under tf-keras ``save_weights`` writes that file too (legacy_h5_weights.py). A bare prefix or ``.npz`` keeps sim's
weights file (the stand-in for TensorFlow checkpoints: ModelCheckpoint, BackupAndRestore), and
``model.save`` to a directory keeps its current form (tf.saved_model's job). Formats sim does
not write yet raise NotImplementedError naming them: the legacy HDF5 full-model ``.h5``.
Under tf-keras ``.keras`` and ``.weights.h5`` are tf-keras's variant of the layout
(state_walk.py, model_config.py).
"""
from __future__ import annotations

import os

from sim.keras import _errors
from sim.keras.version import keras_major

_LEGACY_H5 = (".h5", ".hdf5")


def _unsupported(what):
    return NotImplementedError(_errors.msg("format_unsupported", what=what))


def _overwrite_refused(path, overwrite):
    return not overwrite and os.path.exists(path)


def save(model, filepath, overwrite=True, save_format=None, **kwargs):
    path = os.fspath(filepath)
    if path.endswith(".keras"):
        if _overwrite_refused(path, overwrite):
            return None
        from sim.keras.saving import keras_archive
        return keras_archive.save_model(model, path)
    if path.endswith(_LEGACY_H5):
        raise _unsupported(f"the legacy HDF5 full-model file (model.save to .h5): {path}")
    from sim.keras.models.persistence import save_model
    return save_model(model, path, overwrite=overwrite)


def save_weights(model, filepath, overwrite=True):
    path = os.fspath(filepath)
    if path.endswith(".weights.h5"):
        if _overwrite_refused(path, overwrite):
            return None
        from sim.keras.saving import weights_file
        return weights_file.save_weights(model, path)
    if path.endswith(_LEGACY_H5):
        if keras_major() == 3:
            raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={path}")
        if _overwrite_refused(path, overwrite):
            return None
        from sim.keras.saving import weights_file
        return weights_file.save_legacy_weights(model, path)
    from sim.keras.saving import npz_weights
    return npz_weights.save_weights(model, path, overwrite=overwrite)


def load_weights(model, filepath, skip_mismatch=False):
    path = os.fspath(filepath)
    if path.endswith((".weights.h5", ".keras")):
        from sim.keras.saving import weights_file
        return weights_file.load_weights(model, path)
    if path.endswith(_LEGACY_H5):
        from sim.keras.saving import weights_file
        return weights_file.load_weights(model, path, legacy=True)
    from sim.keras.saving import npz_weights
    return npz_weights.load_weights(model, path)


def load_model(filepath, custom_objects=None, compile=True):
    path = os.fspath(filepath)
    if path.endswith(".keras"):
        from sim.keras.saving import keras_archive
        return keras_archive.load_model(path, custom_objects=custom_objects, compile=compile)
    if path.endswith(_LEGACY_H5):
        raise _unsupported(f"the legacy HDF5 full-model file (load_model from .h5): {path}")
    from sim.keras.models import persistence
    return persistence.load_model(path, custom_objects=custom_objects, compile=compile)
