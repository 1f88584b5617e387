"""The few engine operations the distribute layer needs, in one place.

Cross-device results are computed on NumPy arrays (by sim.collectives) and wrapped back into
engine Tensors here; losses that must stay differentiable (compute_average_loss) use engine
ops. Keeping the seam in one file means an engine change touches one module.
"""
from __future__ import annotations

import numpy as np

from sim.engine.tensor import Tensor, constant as _constant, convert_to_tensor


def to_numpy(x):
    """The value of a tensor, variable, distributed variable or Python number as an ndarray."""
    if type(x) is Tensor:
        return x._v
    if hasattr(x, "_engine_variable"):
        return x._engine_variable()._value
    if isinstance(x, np.ndarray):
        return x
    return convert_to_tensor(x)._v


def like(array, template):
    """Wrap ``array`` as a Tensor with the dtype of ``template`` (keeps bfloat16 tags)."""
    dt = getattr(template, "_dt", None)
    return Tensor(np.asarray(array), dt)


def constant(value, dtype=None):
    return _constant(value, dtype=dtype)


def reduce_sum(x, axis=None):
    from sim.engine.ops.reduce import reduce_sum as rs
    return rs(x, axis=axis)


def rank(x):
    return to_numpy(x).ndim


def dim(x, axis):
    return to_numpy(x).shape[axis]


def truediv(a, b):
    from sim.engine.ops.math import divide
    return divide(a, b)


def multiply(a, b):
    from sim.engine.ops.math import multiply as mul
    return mul(a, b)


def cast_like(x, template):
    from sim.engine.ops.math import cast
    return cast(x, convert_to_tensor(template).dtype)


def cast(x, dtype):
    from sim.engine.ops.math import cast as c
    return c(x, dtype)


def concat(values, axis):
    from sim.engine.tensor import Tensor as T
    arrays = [to_numpy(v) for v in values]
    return like(np.concatenate(arrays, axis=axis), values[0] if isinstance(values[0], T) else None)


def dataset_from_tensor_slices(x):
    from sim.data import Dataset
    return Dataset.from_tensor_slices(x)
