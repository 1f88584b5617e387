"""``tf.keras.saving`` and the files models are saved to.

- ``.keras``: Keras 3's native zip (keras_archive.py), read and written by TensorFlow too;
- ``.weights.h5``: Keras 3's weights-only HDF5 (weights_file.py, weights_h5.py);
- a bare prefix or ``.npz``: sim's own weights file (npz_weights.py), the stand-in for a
  TensorFlow checkpoint that ModelCheckpoint / BackupAndRestore write;
- routes.py picks one from the path, as Keras does from the extension.
"""
from __future__ import annotations

from sim.keras.saving.npz_weights import (FORMAT, assign_all, atomic_savez, load_npz, pack,
                                          weights_path)
from sim.keras.saving.registry import (CustomObjectScope, custom_object_scope,
                                       get_custom_objects, get_registered_name,
                                       get_registered_object, register_keras_serializable)


def save_model(model, filepath, overwrite=True, **kwargs):
    return model.save(filepath, overwrite=overwrite, **kwargs)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True, **kwargs):
    from sim.keras.version import keras_major
    if kwargs and (keras_major() == 3 or set(kwargs) - {"options"}):   # tf-keras takes options=
        raise TypeError(f"load_model() got an unexpected keyword argument '{sorted(kwargs)[0]}'")
    from sim.keras.saving import routes
    return routes.load_model(filepath, custom_objects=custom_objects, compile=compile)


def save_weights(model, filepath, overwrite=True, **kwargs):
    return model.save_weights(filepath, overwrite=overwrite, **kwargs)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    return model.load_weights(filepath, skip_mismatch=skip_mismatch, **kwargs)


def serialize_keras_object(obj):
    from sim.keras.saving import config_out, model_config
    from sim.keras.training import Model
    return model_config.model(obj) if isinstance(obj, Model) else config_out.layer(obj)


def deserialize_keras_object(config, custom_objects=None, **kwargs):
    from sim.keras.saving import config_in
    return config_in.deserialize(config, custom_objects)


__all__ = ["save_model", "load_model", "save_weights", "load_weights",
           "register_keras_serializable", "get_custom_objects", "get_registered_name",
           "get_registered_object", "custom_object_scope", "CustomObjectScope",
           "serialize_keras_object", "deserialize_keras_object",
           # sim's own weights file (npz_weights.py), used by the callbacks
           "FORMAT", "assign_all", "atomic_savez", "load_npz", "pack", "weights_path"]
