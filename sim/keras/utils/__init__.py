"""``tf.keras.utils``: set_random_seed, to_categorical, experimental.DatasetCreator."""
from __future__ import annotations

import random
import types

import numpy as np

from sim.keras import backend
from sim.keras.data_adapter import DatasetCreator
from sim.keras.saving.registry import (CustomObjectScope, custom_object_scope,  # noqa: F401
                                       get_custom_objects, get_registered_name,
                                       get_registered_object, register_keras_serializable)
from sim.keras.utils.sidecar_evaluator import SidecarEvaluator


def set_random_seed(seed):
    """Seed Python, NumPy, Keras initializers/dropout and tf.random in one call."""
    if not isinstance(seed, (int, np.integer)):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} "
                         f"(of type {type(seed)})")
    random.seed(seed)
    np.random.seed(seed)
    backend.seed_everything(int(seed))
    try:
        import sim.tf as tf

        tf.random.set_seed(int(seed))
    except (AttributeError, ImportError, NotImplementedError):
        pass


def to_categorical(y, num_classes=None, dtype="float32"):
    y = np.array(y, dtype="int")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = tuple(shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    out = np.zeros((y.shape[0], num_classes), dtype=dtype)
    out[np.arange(y.shape[0]), y] = 1
    return out.reshape(shape + (num_classes,))


experimental = types.SimpleNamespace(DatasetCreator=DatasetCreator)

__all__ = ["set_random_seed", "to_categorical", "experimental", "DatasetCreator", "SidecarEvaluator",
           "register_keras_serializable", "custom_object_scope", "CustomObjectScope",
           "get_custom_objects", "get_registered_name", "get_registered_object"]
