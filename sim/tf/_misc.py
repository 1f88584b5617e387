"""Small top-level TensorFlow names that have no engine module of their own."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np


def executing_eagerly():
    """Always True: sim.tf runs every function eagerly."""
    return True


@contextmanager
def control_dependencies(control_inputs):
    """Eager code runs in order already; accepted for code written for graphs."""
    yield


@contextmanager
def init_scope():
    yield


def py_function(func, inp, Tout, name=None):
    from sim.engine import nest
    from sim.engine.tensor import convert_to_tensor
    result = func(*inp)
    return nest.map_structure(convert_to_tensor, result)


def get_static_value(tensor, partial=False):
    from sim.engine.tensor import convert_to_tensor
    return convert_to_tensor(tensor).numpy()


def sort(values, axis=-1, direction="ASCENDING", name=None):
    from sim.engine.ops._core import out, tensor
    x = tensor(values)
    v = np.sort(x._v, axis=axis)
    return out(v if direction == "ASCENDING" else np.flip(v, axis), (x,), None, x._v.size)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    from sim.engine.ops._core import out, tensor
    x = tensor(values)
    a = x._v if direction == "ASCENDING" else -x._v
    return out(np.argsort(a, axis=axis, kind="stable").astype(np.int32), (x,), None, x._v.size)


def unsupported_v1(*args, **kwargs):
    from sim.tf._lazy import unsupported
    raise unsupported("tf.ones_initializer (TF1)")


def get_logger():
    """``tf.get_logger()``: the ``tensorflow`` logger (sim's notes, such as soft placement, go there)."""
    import logging
    return logging.getLogger("tensorflow")
