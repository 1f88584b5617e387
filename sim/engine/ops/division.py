"""Division as math_ops writes it: ``x / y`` casts integer tensors (int32/int64 to float64),
``tf.divide`` converts a non-tensor ``x`` to ``y``'s dtype, ``tf.math.divide_no_nan`` both ways;
integer floor division by zero is TensorFlow's InvalidArgumentError."""
from __future__ import annotations

import numpy as np

from sim.engine import conversion, dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops._core import tensor
from sim.engine.ops.math import _bin, _is_tensorish, _realdiv, _safe, cast, multiply, negative


# math_ops._TRUEDIV_TABLE: what an integer tensor is cast to before dividing (floats: nothing).
_TRUEDIV = {"int8": dtypes.float32, "int16": dtypes.float32, "uint8": dtypes.float32,
            "int32": dtypes.float64, "int64": dtypes.float64}


def _true_operands(x, y, what):
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    name = x.dtype.name
    if name not in _TRUEDIV and name not in conversion.FLOAT:
        table = ", ".join(f"tf.{n}" for n in ("int8", "uint8", "int16", "uint16", "int32", "int64",
                                               "bfloat16", "float16", "float32", "float64"))
        raise TypeError(f"Invalid dtype {x.dtype!r} in {what}. Expected one of {{{table}}}.")
    ft = _TRUEDIV.get(name)
    return (cast(x, ft), cast(y, ft)) if ft is not None else (x, y)


def truediv(x, y, name=None):
    """``x / y`` (math_ops._truediv_python3): integers divide as float64 (int32/int64) or float32."""
    x, y = conversion.hinted(x, y, "RealDiv", check=False)
    return _realdiv(*_true_operands(x, y, "__truediv__"))


def divide(x, y, name=None):
    """``tf.divide``: a non-tensor ``x`` takes ``y``'s dtype, then ``x / y``."""
    if not _is_tensorish(x):
        x = tensor(x, conversion.read(y).dtype if _is_tensorish(y) else None)
    return truediv(x, y)


_div_no_nan = _bin(lambda a, b: np.where(b == 0, 0, a / _safe(b)).astype(np.result_type(a, b)),
                   "DivNoNan", lambda g, a, b, v: np.where(b == 0, 0, g / _safe(b)),
                   lambda g, a, b, v: np.where(b == 0, 0, -g * v / _safe(b)),
                   lambda g, x, y, z: divide_no_nan(g, y),
                   lambda g, x, y, z: negative(divide_no_nan(multiply(g, z), y)))


def divide_no_nan(x, y, name=None):
    """``tf.math.divide_no_nan``: 0 where the divisor is 0 (how metrics and compute_average_loss
    avoid NaN); converts and casts as math_ops.div_no_nan does."""
    if not _is_tensorish(x) and _is_tensorish(y):
        y = conversion.read(y)
        x = tensor(x, y.dtype)
    else:
        x, y = conversion.hinted(x, y, "DivNoNan", check=False)
    return _div_no_nan(*_true_operands(x, y, "tf.math.divide_no_nan"))


