"""Which file format a save or load uses, chosen from the path as the selected Keras does.

- ``.keras``: the native zip (keras_archive.py); ``.weights.h5``: the weights-only HDF5
  (weights_file.py). Under tf-keras both are tf-keras's variant of the layout.
- any other ``.h5``: Keras 3's ``save_weights`` refuses it (Keras's ValueError); tf-keras's
  writes its HDF5 weights file, which ``load_weights`` reads under either (legacy_h5_weights.py);
  ``model.save`` / ``load_model`` make and read the legacy full-model file (legacy_h5_model.py).
- a bare prefix or ``.npz``: under tf-keras, sim's weights file (the stand-in for TensorFlow
  checkpoints: ModelCheckpoint) and ``model.save`` to a directory sim's SavedModel directory
  (sim/tf/saved_model_dir.py). Keras 3 refuses both with its ValueError (keras/src/saving/
  saving_api.py, models/model.py); sim's own callbacks write their own files (BackupAndRestore's
  npz) and never rely on a bare path.
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
    if kwargs.get("zipped") is False:
        raise _unsupported(f"the unzipped Keras directory (model.save(..., zipped=False)): {path}")
    if path.endswith(".keras"):
        if _overwrite_refused(path, overwrite):
            return None
        from sim.keras.saving import keras_archive
        return keras_archive.save_model(model, path)
    if path.endswith(_LEGACY_H5):
        if _overwrite_refused(path, overwrite):
            return None
        from sim.storage import safe_io
        from sim.keras.saving import legacy_h5_model, legacy_metrics
        legacy_metrics.build_from_outputs(model)        # tf-keras resolves 'accuracy' first
        data = legacy_h5_model.to_bytes(model)
        return safe_io.atomic_write(path, lambda f: f.write(data))
    if keras_major() == 3:
        raise ValueError(
            "Invalid filepath extension for saving. Please add either a `.keras` extension for "
            "the native Keras format (recommended) or a `.h5` extension. Use "
            "`model.export(filepath)` if you want to export a SavedModel for use with "
            f"TFLite/TFServing/etc. Received: filepath={path}.")
    if not os.path.splitext(path)[1]:   # tf-keras: a SavedModel directory
        from sim.tf import saved_model_dir
        saved_model_dir.refuse_unbuilt(model)
        from sim.keras.saving import legacy_metrics
        legacy_metrics.build_from_outputs(model)        # as for .h5 (legacy_metrics.py)
        return saved_model_dir.save(model, path, options=kwargs.get("options"))
    from sim.keras.models.persistence import save_model
    return save_model(model, path, overwrite=overwrite)


def save_weights(model, filepath, overwrite=True):
    path = os.fspath(filepath)
    if path.endswith(".weights.h5"):
        if _overwrite_refused(path, overwrite):
            return None
        from sim.keras.saving import weights_file
        return weights_file.save_weights(model, path)
    if keras_major() == 3:
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={path}")
    if path.endswith(_LEGACY_H5):
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
        return weights_file.load_weights(model, path, skip_mismatch=skip_mismatch)
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
        from sim.keras.saving import weights_file
        return weights_file.load_legacy_model(path, custom_objects, compile)
    if os.path.isdir(path):                 # a SavedModel directory (saved_model_dir.py)
        from sim.tf import saved_model_dir
        return saved_model_dir.load_keras(path, custom_objects=custom_objects, compile=compile)
    from sim.keras.models import persistence
    return persistence.load_model(path, custom_objects=custom_objects, compile=compile)
