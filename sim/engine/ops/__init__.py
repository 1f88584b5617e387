"""The engine's ops, one module per family, and the operators they give Tensor and Variable.

``math`` (elementwise), ``linalg`` (matmul), ``reduce``, ``array`` (shape ops, slicing),
``nn`` (activations, losses), ``conv`` (conv2d, max_pool2d), ``random`` (seeded). Python operators on a Tensor or a
Variable (``a + b``, ``a @ b``, ``a[1:]``...) call these same ops, so they count and record.
"""
from __future__ import annotations

import numpy as np

from sim.engine import conversion
from sim.engine.ops import array, conv, indexing, linalg, math, nn, random, reduce  # noqa: F401
from sim.engine.tensor import Tensor
from sim.engine.variable import Variable


def _flip(fn):
    """A reflected operator (``2.0 * t``): TensorFlow converts the value to the tensor's dtype
    strictly (override_binary_operator's force_same_dtype), then applies the op."""
    def reflected(a, b):
        value, t = conversion.reflected(a, b)
        return fn(value, t)
    return reflected


_OPERATORS = {
    "__add__": math.add, "__radd__": _flip(math.add),
    "__sub__": math.subtract, "__rsub__": _flip(math.subtract),
    "__mul__": math.multiply, "__rmul__": _flip(math.multiply),
    "__truediv__": math.truediv, "__rtruediv__": _flip(math.truediv),
    "__floordiv__": math.floordiv, "__rfloordiv__": _flip(math.floordiv),
    "__mod__": math.floormod, "__rmod__": _flip(math.floormod),
    "__pow__": math.pow, "__rpow__": _flip(math.pow),
    "__matmul__": linalg.matmul, "__rmatmul__": _flip(linalg.matmul),
    "__lt__": math.less, "__le__": math.less_equal,
    "__gt__": math.greater, "__ge__": math.greater_equal,
    "__eq__": math.equal, "__ne__": math.not_equal,
    "__and__": math.logical_and, "__or__": math.logical_or, "__xor__": math.logical_xor,
    "__neg__": math.negative, "__abs__": math.abs, "__invert__": math.logical_not,
    "__getitem__": indexing.getitem,
}


def _eq_safe(op):
    """``==`` with None, or an object that is no number, array or tensor, is False, as in
    TensorFlow (tensor_equals); a number of the wrong kind (``int_tensor == 1.5``) raises there."""
    def f(a, b):
        if b is None:
            return op is math.not_equal
        if isinstance(b, (int, float, np.ndarray, np.generic, list, tuple, Tensor)) or \
                conversion.is_variable(b):
            return op(a, b)
        try:
            return op(a, b)
        except (TypeError, ValueError):
            return op is math.not_equal
    return f


for _cls in (Tensor, Variable):
    for _name, _fn in _OPERATORS.items():
        if _name in ("__eq__", "__ne__"):
            _fn = _eq_safe(_fn)
        setattr(_cls, _name, _fn)
    _cls.__pos__ = lambda self: self
