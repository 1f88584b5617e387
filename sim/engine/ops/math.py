"""Elementwise math (``tf.math``): forward in NumPy, each input's gradient beside it, first on
NumPy arrays (the ordinary backward pass), then on Tensors (``t*``: for higher-order gradients)."""
from __future__ import annotations

import math as _m

import numpy as np

from sim.engine import conversion, dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.higher_order import FirstOrderOnly
from sim.engine.ops import _tgrad
from sim.engine.ops._core import apply, binary, out, tensor, unbroadcast
from sim.engine.tensor import Tensor, check_numeric


def _bin(fn, op, ga, gb, tga=None, tgb=None, convert=binary, kinds=None):
    """A broadcasting binary op; ``ga(g, a, b, v)``/``gb`` give the unreduced gradients on
    arrays, ``tga(g, x, y, z)``/``tgb`` the same on Tensors. ``convert`` is TensorFlow's rule for
    its operands (sim/engine/conversion.py), ``kinds`` the dtypes its kernel takes."""
    tg = _tgrad.Binary(tga, tgb) if tga or tgb else FirstOrderOnly(op)

    def f(x, y, name=None):
        x, y = convert(x, y, op)
        if kinds is not None:
            conversion.allowed(x, kinds, op)
        a, b = x._v, y._v
        v = apply(fn, a, b, op)
        fa = None if ga is None else (lambda g: unbroadcast(ga(g, a, b, v), a.shape))
        fb = None if gb is None else (lambda g: unbroadcast(gb(g, a, b, v), b.shape))
        return out(v, (x, y), (fa, fb), v.size, x._dt, tg)
    f.__name__ = op
    return f


def _is(cond, like):
    """A comparison as a 0/1 constant of ``like``'s dtype (where a gradient flows)."""
    return cast(cond, like.dtype)


add = _bin(np.add, "AddV2", lambda g, a, b, v: g, lambda g, a, b, v: g,
           lambda g, x, y, z: g, lambda g, x, y, z: g, convert=conversion.hinted,
           kinds=conversion.REAL | {"string"})
subtract = _bin(np.subtract, "Sub", lambda g, a, b, v: g, lambda g, a, b, v: -g,
                lambda g, x, y, z: g, lambda g, x, y, z: negative(g),
                kinds=conversion.REAL)
multiply = _bin(np.multiply, "Mul", lambda g, a, b, v: g * b, lambda g, a, b, v: g * a,
                lambda g, x, y, z: multiply(g, y), lambda g, x, y, z: multiply(g, x),
                kinds=conversion.REAL)
_realdiv = _bin(np.true_divide, "RealDiv", lambda g, a, b, v: g / b, lambda g, a, b, v: -g * v / b,
                lambda g, x, y, z: _realdiv(g, y),
                lambda g, x, y, z: negative(multiply(g, _realdiv(z, y))),
                kinds=conversion.REAL)
def _int_division(fn, op):
    """Integer division by zero is TensorFlow's InvalidArgumentError (NumPy would warn)."""
    def f(a, b):
        if a.dtype.kind in "iu" and not np.all(b):
            raise InvalidArgumentError(f"Integer division by zero [Op:{op}]")
        return fn(a, b)
    return f


floordiv = _bin(_int_division(np.floor_divide, "FloorDiv"), "FloorDiv", None, None,
                kinds=conversion.REAL)
floormod = _bin(_int_division(np.mod, "FloorMod"), "FloorMod", lambda g, a, b, v: g, lambda g, a, b, v: -g * np.floor(a / b),
                lambda g, x, y, z: g,
                lambda g, x, y, z: negative(multiply(g, floor(_realdiv(x, y)))),
                kinds=conversion.REAL)
maximum = _bin(np.maximum, "Maximum", lambda g, a, b, v: g * (a >= b), lambda g, a, b, v: g * (a < b),
               lambda g, x, y, z: multiply(g, _is(greater_equal(x, y), g)),
               lambda g, x, y, z: multiply(g, _is(less(x, y), g)),
               kinds=conversion.REAL)
minimum = _bin(np.minimum, "Minimum", lambda g, a, b, v: g * (a <= b), lambda g, a, b, v: g * (a > b),
               lambda g, x, y, z: multiply(g, _is(less_equal(x, y), g)),
               lambda g, x, y, z: multiply(g, _is(greater(x, y), g)),
               kinds=conversion.REAL)
squared_difference = _bin(lambda a, b: (a - b) ** 2, "SquaredDifference",
                          lambda g, a, b, v: 2 * g * (a - b), lambda g, a, b, v: -2 * g * (a - b),
                          lambda g, x, y, z: multiply(g, multiply(subtract(x, y), 2.0)),
                          lambda g, x, y, z: multiply(g, multiply(subtract(x, y), -2.0)),
                          kinds=conversion.FLOAT | {'int32', 'int64'})


def _pow_b(g, a, b, v):
    safe = np.where(a > 0, a, 1)
    return g * v * np.log(safe) * (a > 0)


def _tpow_a(g, x, y, z):
    return multiply(g, multiply(y, pow(x, subtract(y, 1.0))))


def _tpow_b(g, x, y, z):
    from sim.engine.ops.indexing import where
    positive = greater(x, 0.0)
    return where(positive, multiply(multiply(g, z), log(where(positive, x, 1.0))), 0.0)


pow = _bin(np.power, "Pow", lambda g, a, b, v: g * b * np.power(a, b - 1), _pow_b,  # noqa: A001
           _tpow_a, _tpow_b,
           kinds=conversion.SIGNED)


def _safe(b):
    return np.where(b == 0, 1, b)


realdiv = _realdiv
mod = floormod


def _cmp(fn, op, kinds=None):
    def f(x, y, name=None):
        x, y = binary(x, y, op)
        if kinds is not None:
            conversion.allowed(x, kinds, op)
        return out(apply(fn, x._v, y._v, op), (x, y), None, max(x._v.size, y._v.size))
    f.__name__ = op
    return f


equal, not_equal = _cmp(np.equal, "Equal"), _cmp(np.not_equal, "NotEqual")
greater = _cmp(np.greater, "Greater", conversion.REAL)
greater_equal = _cmp(np.greater_equal, "GreaterEqual", conversion.REAL)
less = _cmp(np.less, "Less", conversion.REAL)
less_equal = _cmp(np.less_equal, "LessEqual", conversion.REAL)
logical_and, logical_or = _cmp(np.logical_and, "LogicalAnd"), _cmp(np.logical_or, "LogicalOr")
logical_xor = _cmp(np.logical_xor, "LogicalXor")


def logical_not(x, name=None):
    x = tensor(x)
    return out(np.logical_not(x._v), (x,), None, x._v.size)


def _unary(fn, op, grad, cost=1, tgrad=None, kinds=conversion.FLOAT):
    """An elementwise op; ``grad(g, a, v)`` is the input gradient, ``tgrad(g, x, y)`` the same
    on Tensors; ``kinds`` the dtypes its kernel takes (TensorFlow's error for the others)."""
    tg = _tgrad.Unary(tgrad) if tgrad is not None else FirstOrderOnly(op)

    def f(x, name=None):
        x = tensor(x)
        if x.dtype.name not in kinds:
            conversion.allowed(x, kinds, op)
        a = x._v
        v = fn(a)
        return out(v, (x,), (None if grad is None else (lambda g: grad(g, a, v)),),
                   cost * v.size, x._dt, tg)
    f.__name__ = op
    return f


negative = _unary(np.negative, "Neg", lambda g, a, v: -g, tgrad=lambda g, x, y: negative(g),
                  kinds=conversion.SIGNED)
exp = _unary(np.exp, "Exp", lambda g, a, v: g * v, tgrad=lambda g, x, y: multiply(g, y))
log = _unary(np.log, "Log", lambda g, a, v: g / a, tgrad=lambda g, x, y: _realdiv(g, x))
log1p = _unary(np.log1p, "Log1p", lambda g, a, v: g / (1 + a),
               tgrad=lambda g, x, y: _realdiv(g, add(x, 1.0)))
sqrt = _unary(np.sqrt, "Sqrt", lambda g, a, v: g * 0.5 / v,
              tgrad=lambda g, x, y: _realdiv(multiply(g, 0.5), y))
rsqrt = _unary(lambda a: 1 / np.sqrt(a), "Rsqrt", lambda g, a, v: -0.5 * g * v ** 3,
               tgrad=lambda g, x, y: multiply(g, multiply(pow(y, 3.0), -0.5)))
square = _unary(np.square, "Square", lambda g, a, v: 2 * g * a,
                tgrad=lambda g, x, y: multiply(g, multiply(x, 2.0)), kinds=conversion.REAL)
abs = _unary(np.abs, "Abs", lambda g, a, v: g * np.sign(a),  # noqa: A001
             tgrad=lambda g, x, y: multiply(g, sign(x)), kinds=conversion.SIGNED)
sign = _unary(np.sign, "Sign", lambda g, a, v: np.zeros_like(g),
              tgrad=lambda g, x, y: Tensor(np.zeros_like(g._v)), kinds=conversion.SIGNED)
reciprocal = _unary(lambda a: (1 / a).astype(a.dtype), "Reciprocal", lambda g, a, v: -g * v * v,
                    tgrad=lambda g, x, y: negative(multiply(g, square(y))), kinds=conversion.SIGNED)
sin = _unary(np.sin, "Sin", lambda g, a, v: g * np.cos(a), tgrad=lambda g, x, y: multiply(g, cos(x)))
cos = _unary(np.cos, "Cos", lambda g, a, v: -g * np.sin(a),
             tgrad=lambda g, x, y: negative(multiply(g, sin(x))))
tanh = _unary(np.tanh, "Tanh", lambda g, a, v: g * (1 - v * v), cost=4,
              tgrad=lambda g, x, y: multiply(g, subtract(1.0, square(y))))
floor = _unary(np.floor, "Floor", None)
ceil = _unary(np.ceil, "Ceil", None)
_round = _unary(np.rint, "Round", None, kinds=conversion.SIGNED)


def round(x, name=None):  # noqa: A001
    """``tf.round``: banker's rounding; an integer tensor is returned as it is (math_ops.round)."""
    x = tensor(x)
    return x if x.dtype.is_integer else _round(x)
is_nan = _unary(np.isnan, "IsNan", None)
is_finite = _unary(np.isfinite, "IsFinite", None)
is_inf = _unary(np.isinf, "IsInf", None)


def _sigmoid(a):
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


sigmoid = _unary(_sigmoid, "Sigmoid", lambda g, a, v: g * v * (1 - v), cost=4,
                 tgrad=lambda g, x, y: multiply(g, multiply(y, subtract(1.0, y))))
softplus = _unary(lambda a: np.logaddexp(0, a).astype(a.dtype, copy=False), "Softplus",
                  lambda g, a, v: g * _sigmoid(a), cost=4,
                  tgrad=lambda g, x, y: multiply(g, sigmoid(x)))
_erf = np.vectorize(_m.erf, otypes=[np.float64])
erf = _unary(lambda a: _erf(a).astype(a.dtype), "Erf",
             lambda g, a, v: g * 2 / np.sqrt(np.pi) * np.exp(-a * a),
             tgrad=lambda g, x, y: multiply(g, multiply(exp(negative(square(x))),
                                                       2 / _m.sqrt(_m.pi))))


def cast(x, dtype, name=None):
    """``tf.cast``: change dtype; gradients flow between float dtypes only."""
    x = tensor(x)
    dt = dtypes.as_dtype(dtype)
    if x.dtype is dt:
        return x
    a = x._v
    if dt is dtypes.string or a.dtype.kind == "O":
        raise NotImplementedError("Cast string to/from number is not supported. Use "
                                  "tf.strings.to_number.")
    if dt.is_integer and a.dtype.kind == "f":
        v = np.trunc(a).astype(dt.as_numpy_dtype)
    else:
        v = a.astype(dt.as_numpy_dtype)
    if dt is dtypes.bfloat16:
        from sim.engine.tensor import round_bfloat16
        v = round_bfloat16(v)
    both_float = dt.is_floating and a.dtype.kind == "f"
    return out(v, (x,), ((lambda g: g.astype(a.dtype)) if both_float else None,), v.size,
               dt if dt is dtypes.bfloat16 else None, _cast_back)


def _cast_back(i, g, inputs, y):
    return cast(g, inputs[0].dtype)


def add_n(inputs, name=None):
    """``tf.add_n``: the sum of a list of same-shaped tensors."""
    xs = [tensor(i) for i in inputs]
    if not xs:
        raise ValueError("inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape")
    v = xs[0]._v
    for x in xs[1:]:
        if x._v.shape != v.shape:
            raise ValueError(f"Shapes {xs[0].shape} and {x.shape} are incompatible")
        v = v + x._v
    return out(v, tuple(xs), tuple(_ident for _ in xs), v.size * (len(xs) - 1), xs[0]._dt,
               _tident)


def _ident(g):
    return g


def _tident(i, g, inputs, y):
    return g


def scalar_mul(scalar, x, name=None):
    return multiply(x, scalar)


def _is_tensorish(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


# x / y, tf.divide and tf.math.divide_no_nan convert and cast as math_ops (division.py)
from sim.engine.ops.division import divide, divide_no_nan, truediv  # noqa: E402,F401
