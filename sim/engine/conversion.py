"""How TensorFlow turns an op's arguments into tensors of one dtype (eager mode).

Read from TensorFlow 2.21: ``ops.convert_to_tensor`` (a NumPy array asked for another dtype is
force-cast, as pywrap_tensor.cc does with NPY_ARRAY_FORCECAST; a Python value must fit: 1.5 or
2.0 is no int32, 1 is no bool; a tensor or variable is never cast), the generated ops' input
matching (pywrap_tfe_src.cc's fast path when every input is a tensor, variable, array or Python
number: each other input takes the first tensor's or variable's dtype; else
execute.args_to_matching_eager: the first EagerTensor's dtype, or the first value's own), and
math_ops' wrappers (``tf.add``/``x + y``: ``y`` converted with ``x``'s dtype as a hint; the
reflected operators: the Python value converted to the tensor's dtype, strictly).
Mixed dtypes reaching a kernel raise TensorFlow's InvalidArgumentError.
"""
from __future__ import annotations

import numpy as np

from sim.engine import dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.tensor import Tensor, convert_to_tensor

_KINDS = {"float32": "float", "float64": "double", "float16": "half"}


def _name(d):
    return _KINDS.get(d.name, d.name)


def is_variable(x):
    return type(x) is not Tensor and (hasattr(x, "_engine_variable") or hasattr(x, "_as_tensor"))


def read(x):
    """A Tensor for a Tensor or a variable (any other value is returned as it is)."""
    if type(x) is Tensor:
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    if hasattr(x, "_engine_variable"):
        return x._engine_variable()._as_tensor()
    return x


def _fast(values):
    """pywrap_tfe_src.cc's CheckOneInput: tensors, variables, arrays and Python numbers only."""
    return all(type(v) is Tensor or is_variable(v) or isinstance(v, (np.ndarray, int, float))
               for v in values)


def match(values, op):
    """The tensors a generated op gets for inputs that share one dtype attribute."""
    values = list(values)
    if _fast(values):
        values = [read(v) if is_variable(v) else v for v in values]   # each variable read once
        dt = next((v.dtype for v in values if type(v) is Tensor), None)
        out = []
        for v in values:
            if type(v) is Tensor:
                out.append(v)
            else:
                t = convert_to_tensor(v, dt)
                dt = t.dtype if dt is None else dt
                out.append(t)
    else:
        dt = next((v.dtype for v in values if type(v) is Tensor), None)
        out = []
        for v in values:
            t = convert_to_tensor(v, dt)
            dt = t.dtype if dt is None else dt
            out.append(t)
    same(out, op)
    return out


def same(tensors, op):
    """A kernel's check that its inputs have one dtype: TensorFlow's InvalidArgumentError."""
    first = tensors[0]
    for i, t in enumerate(tensors[1:], 1):
        if t._v.dtype != first._v.dtype or t._dt is not first._dt:
            from sim.engine.tensor import check_numeric
            from sim.i18n import t as tr
            check_numeric(first, op)
            check_numeric(t, op)
            a, b = first.dtype.name, t.dtype.name
            raise InvalidArgumentError(
                f"cannot compute {op} as input #{i}(zero-based) was expected to be a "
                f"{_name(first.dtype)} tensor but is a {_name(t.dtype)} tensor [Op:{op}] "
                + tr("engine.dtype_mismatch", a=a, b=b))


def hinted(x, y, op, check=True):
    """``tf.add``'s and ``tf.matmul``'s rule: ``x`` alone, ``y`` with ``x``'s dtype as a hint."""
    x = read(x) if type(x) is Tensor or is_variable(x) else convert_to_tensor(x)
    y = read(y) if type(y) is Tensor or is_variable(y) else convert_to_tensor(y, dtype_hint=x.dtype)
    if check:
        same([x, y], op)
    return x, y


def reflected(tensor_, value):
    """A reflected operator (``2.0 * t``): the value converted to the tensor's dtype, strictly."""
    t = read(tensor_)
    return convert_to_tensor(value, t.dtype), t


# Which dtypes an op's kernel is registered for (gen_math_ops' "Must be one of" lists).
FLOAT = frozenset({"float16", "bfloat16", "float32", "float64"})
SIGNED = FLOAT | {"int8", "int16", "int32", "int64"}
REAL = SIGNED | {"uint8"}


def allowed(x, kinds, op):
    """TensorFlow's error when no kernel of ``op`` takes ``x``'s dtype (bool for Abs, int for Exp)."""
    d = x.dtype
    if d.name in kinds:
        return
    from sim.engine.tensor import check_numeric
    check_numeric(x, op)
    names = ", ".join(_name(dtypes.as_dtype(n)) for n in _ORDER if n in kinds)
    raise InvalidArgumentError(f"Value for attr 'T' of {_name(d)} is not in the list of allowed "
                               f"values: {names}\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}> "
                               f"[Op:{op}] name: ")


_ORDER = ["bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
          "bool", "string"]


def python_dtype(value):
    """The dtype TensorFlow gives a value converted on its own (for tf.range's inference)."""
    return convert_to_tensor(value).dtype
