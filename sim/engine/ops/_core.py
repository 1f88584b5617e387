"""What every op shares: input conversion, the result wrapper that counts and records, and
the broadcasting rule for gradients.

An op is written micrograd-style: compute the forward value with NumPy, then hand ``out`` the
value, its inputs and one gradient function per input (None where there is no gradient), and
``tgrad``, the same gradients written with engine ops for higher-order gradients
(sim/engine/higher_order.py; sim/engine/ops/_tgrad.py has their shared pieces).
"""
from __future__ import annotations

import numpy as np

from sim.engine import conversion, counting, tape
from sim.engine.errors import InvalidArgumentError
from sim.engine.tape import _state as _tape_state
from sim.engine.tensor import Tensor, check_numeric, convert_to_tensor, round_bfloat16

_ndarray = np.ndarray


def out(value, inputs, grad_fns, flops, dtype=None, tgrad=None):
    """Wrap an op's NumPy result in a Tensor; count its cost; let recording tapes record it."""
    if type(value) is not _ndarray:
        value = np.asarray(value)
    if dtype is not None and value.dtype.kind == "f":   # bfloat16: each result rounded, as TF
        value = round_bfloat16(value)
    t = Tensor(value, dtype)
    recording = _tape_state.recording
    if counting._active or recording:
        nbytes = value.nbytes
        for x in inputs:
            nbytes += x._v.nbytes
        if counting._active:
            counting.add(flops, nbytes)
        if recording and grad_fns is not None:
            tape.record(t, inputs, grad_fns, flops, nbytes, tgrad)
    return t


def tensor(x, dtype=None):
    """Convert an op argument (Tensor, Variable, distributed variable, array, number)."""
    return x if type(x) is Tensor and dtype is None else convert_to_tensor(x, dtype)


def binary(x, y, op):
    """Convert two operands as a generated TensorFlow op does (sim/engine/conversion.py): a
    non-tensor takes the first tensor's dtype; two dtypes are an InvalidArgumentError."""
    if type(x) is Tensor and type(y) is Tensor and x._v.dtype == y._v.dtype and x._dt is y._dt:
        if x._v.dtype.kind == "O":
            check_numeric(x, op)
        return x, y
    x, y = conversion.match((x, y), op)
    if x._v.dtype.kind == "O":
        check_numeric(x, op)
    return x, y


_KINDS = {"float32": "float", "float64": "double", "int32": "int32", "int64": "int64",
          "float16": "half", "bool": "bool", "string": "string"}


def _kind(name):
    return _KINDS.get(name, name)


def apply(fn, a, b, op):
    """``fn(a, b)`` with NumPy broadcasting errors turned into TensorFlow's."""
    try:
        return fn(a, b)
    except ValueError:
        from sim.i18n import t
        sa, sb = _dims(a.shape), _dims(b.shape)
        raise InvalidArgumentError(f"Incompatible shapes: {sa} vs. {sb} [Op:{op}] "
                                   + t("engine.broadcast", a=sa, b=sb)) from None


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def unbroadcast(g, shape):
    """Sum a gradient back to ``shape``: the adjoint of NumPy broadcasting."""
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def axes(axis, ndim, op="Sum"):
    """Normalize a reduction ``axis`` (None, int, list, tensor) to a tuple of non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, Tensor):
        axis = axis._v.tolist()
    if isinstance(axis, (int, np.integer)):
        axis = (axis,)
    result = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(
                f"Invalid reduction dimension {a} for input with {ndim} dimensions. [Op:{op}]")
        result.append(a % ndim if ndim else 0)
    return tuple(result)
