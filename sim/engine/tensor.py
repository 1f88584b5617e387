"""``tf.Tensor`` over a NumPy array, and the conversion rules of ``tf.constant``.

A Tensor is immutable: an op makes a new one. It holds only its array (``_v``), for
bfloat16 a dtype tag, and the device scope it was made in (``_dev``); gradients are the tape's
business (tape.py), so a Tensor stays cheap.
Operators (``+``, ``@``, indexing...) are attached by ``sim.engine.ops`` to avoid an import
cycle. Conversion follows TensorFlow: Python floats -> float32, Python ints -> int32, NumPy
arrays keep their dtype.
"""
from __future__ import annotations

from functools import cache

import numpy as np

from sim.engine import device as _device
from sim.engine.device import _state as _device_state
from sim.engine import dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.python_values import _check_fits, _has_bool, _holds_float64
from sim.engine.shape import TensorShape


class Tensor:
    """An immutable n-dimensional array with a TensorFlow dtype (``tf.Tensor``)."""

    __slots__ = ("_v", "_dt", "_dev", "__weakref__")
    __array_priority__ = 100
    __array_ufunc__ = None  # make NumPy defer to Tensor's reflected operators

    def __init__(self, value, dtype=None):
        self._v = value
        self._dt = dtype
        self._dev = _device_state.top   # where it was made (None: the default device)

    # -- what a tensor is -------------------------------------------------------------
    @property
    def dtype(self):
        return self._dt or dtypes.of_numpy(self._v.dtype)

    @property
    def shape(self):
        return TensorShape(self._v.shape)

    def get_shape(self):
        return self.shape

    @property
    def ndim(self):
        return self._v.ndim

    @property
    def device(self):
        """The full name of the device the tensor was made on (TensorFlow's eager placement)."""
        return self._dev or _device.default_device_name()

    def numpy(self):
        """The value as a NumPy array (a copy, so the tensor stays immutable); bfloat16 as
        ml_dtypes' bfloat16 array, as TensorFlow gives it."""
        v = self._v
        if self._dt is dtypes.bfloat16:
            v = v.astype(_bfloat16())
        return v.copy() if v.ndim else v[()]

    def __array__(self, dtype=None, copy=None):
        return self._v if dtype is None else self._v.astype(dtype)

    def __float__(self):
        return float(self._v)

    def __int__(self):
        return int(self._v)

    def __index__(self):
        if self.dtype.is_integer and self._v.ndim == 0:
            return int(self._v)
        raise TypeError("Only integer scalar tensors can be used as an index.")

    def __bool__(self):
        return bool(self._v)

    def __len__(self):
        if not self._v.ndim:
            raise TypeError("Scalar tensor has no `len()`")
        return self._v.shape[0]

    def __iter__(self):
        if not self._v.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(self._v.shape[0]))

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self):
        return _Ref(self)

    experimental_ref = ref

    # -- printing as TensorFlow does --------------------------------------------------
    def _numpy_text(self, is_repr):
        v = self._v
        if self._dt is dtypes.bfloat16:
            v = v.astype(_bfloat16())        # printed as TensorFlow prints it: [1 3.14062]
        if v.ndim == 0:
            x = v[()]
            text = repr(x) if isinstance(x, bytes) else str(x)
        else:
            text = repr(v) if is_repr else str(v)
        return "\n" + text if "\n" in text else text

    def __repr__(self):
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={self._numpy_text(True)}>"

    def __str__(self):
        return f"tf.Tensor({self._numpy_text(False)}, shape={self.shape}, dtype={self.dtype.name})"

    def __format__(self, format_spec):
        """``'{}'.format(t)`` and ``f'{t:.3f}'`` format the value, as TensorFlow's eager tensors do."""
        v = self._v.astype(np.float32) if self._dt is dtypes.bfloat16 else self._v
        return (v[()] if v.ndim == 0 else v).__format__(format_spec)


class _Ref:
    """``tensor.ref()``: a hashable handle (by identity) that gives the tensor back with deref()."""

    __slots__ = ("_t",)

    def __init__(self, t):
        self._t = t

    def deref(self):
        return self._t

    def __hash__(self):
        return id(self._t)

    def __eq__(self, other):
        return isinstance(other, _Ref) and other._t is self._t


_PY_DEFAULT = {np.dtype(np.float64): np.float32, np.dtype(np.int64): np.int32}


def _to_numpy(value, dtype):
    """A NumPy array for ``value`` with TensorFlow's dtype rules; clear errors for bad input."""
    from sim.i18n import t
    np_in = isinstance(value, (np.ndarray, np.generic))
    if isinstance(value, (list, tuple)) and value and _first_dtype(value) is not None:
        return _autopack(value, dtype or _first_dtype(value))
    if dtype is not None and dtype is dtypes.string:
        return np.asarray(value, dtype=object)
    try:
        arr = np.asarray(value) if dtype is None else np.asarray(value, dtype=dtype.as_numpy_dtype)
    except (ValueError, OverflowError) as e:
        if "inhomogeneous" in str(e) or "sequence" in str(e):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor. "
                             + t("engine.ragged")) from None
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}. "
                        + t("engine.bad_value", value=repr(value)[:60], dtype=dtype.name)) from None
    kind = arr.dtype.kind
    if kind in "US":
        if not np_in:   # NumPy's fixed-width bytes drop trailing NUL bytes: keep Python's own
            arr = np.array(value, dtype=object)
        return _as_bytes(arr) if arr.ndim else np.array(_encode(arr[()]), dtype=object)
    if kind == "O":
        if arr.size and all(isinstance(x, (bytes, str)) for x in arr.flat):
            return _as_bytes(arr)
        first = next((x for x in arr.flat if not isinstance(x, (int, float, bool))), None)
        raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type "
                         f"{type(first).__name__}). " + t("engine.object_dtype", type=type(first).__name__))
    if dtype is None and not np_in:
        target = _PY_DEFAULT.get(arr.dtype)
        if target is not None:
            if target is np.int32 and arr.size and (arr.max() > 2**31 - 1 or arr.min() < -2**31):
                target = np.int64
            arr = arr.astype(target)
        if kind == "f" and target is not None and _holds_float64(value):
            arr = np.asarray(value)    # a list holding float64 arrays stays float64
        if kind in "if" and _has_bool(value):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    elif dtype is not None and not np_in:
        _check_fits(value, dtype)
    if dtype is dtypes.bfloat16:
        arr = round_bfloat16(arr)
    return arr


def _first_dtype(value):
    """The dtype of the first tensor or variable in a nested list (None: it holds none)."""
    for x in value:
        if isinstance(x, (list, tuple)):
            d = _first_dtype(x)
            if d is not None:
                return d
        elif isinstance(x, Tensor) or hasattr(x, "_as_tensor") or hasattr(x, "_engine_variable"):
            return convert_to_tensor(x).dtype
    return None


def _autopack(value, dtype):
    """A list holding tensors (ops._autopacking_helper): every element in the first one's dtype."""
    return np.array([_autopack(x, dtype) if isinstance(x, (list, tuple))
                     else convert_to_tensor(x, dtype)._v for x in value])


def _encode(s):
    """TensorFlow strings are bytes: a Python str becomes UTF-8."""
    return s.encode() if isinstance(s, str) else s


_as_bytes = np.vectorize(_encode, otypes=[object])   # an array of str/bytes -> object array of bytes


@cache
def _bfloat16():
    """ml_dtypes' bfloat16, imported at first use: ml_dtypes 0.7 takes over a second to import,
    which every ``import sim.tf`` would pay though most lessons never touch bfloat16."""
    from ml_dtypes import bfloat16
    return bfloat16


def round_bfloat16(arr):
    """Round values to the nearest bfloat16, kept in float32 storage: ml_dtypes' conversion,
    the library (and rounding: to nearest, ties to even; NaN and inf kept) TensorFlow uses."""
    return np.asarray(arr, dtype=np.float32).astype(_bfloat16()).astype(np.float32)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None, preferred_dtype=None):
    """``tf.convert_to_tensor``: Tensors pass through, Variables are read, the rest converted.
    A hint is tried first and dropped if the value does not fit it; an array always fits
    (NumPy force-casts it), a tensor or variable never changes dtype."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    dtype_hint = dtype_hint if dtype_hint is not None else preferred_dtype
    tp = type(value)
    if tp is not Tensor:
        if hasattr(value, "_as_tensor") or hasattr(value, "_engine_variable"):
            t = value._as_tensor() if hasattr(value, "_as_tensor") else \
                value._engine_variable()._as_tensor()
            if dtype is not None and t.dtype is not dtype:
                raise ValueError(f"Incompatible type conversion requested to type {dtype.name} "
                                 f"for `tf.Variable of type {t.dtype.name}. (Variable: {value})")
            return t
        if isinstance(value, Tensor):
            pass
        else:
            if dtype is None and dtype_hint is not None:
                hint = dtypes.as_dtype(dtype_hint)
                try:
                    return Tensor(_to_numpy(value, hint), hint if hint is dtypes.bfloat16 else None)
                except (TypeError, ValueError):
                    pass
            return Tensor(_to_numpy(value, dtype), dtype if dtype is dtypes.bfloat16 else None)
    if dtype is not None and value.dtype is not dtype:
        raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                         f"{value.dtype.name}: {value!r}")
    return value


def constant(value, dtype=None, shape=None, name="Const"):
    """``tf.constant``: a tensor from a value, optionally cast (``dtype``) and broadcast (``shape``)."""
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        t = value
        if dt is not None and t.dtype is not dt:
            raise TypeError(f"Expected tensor {t} with dtype {dt!r}, but got dtype {t.dtype!r}.")
        value = t.numpy()
    elif hasattr(value, "_as_tensor") or hasattr(value, "_engine_variable"):
        value = np.asarray(convert_to_tensor(value)._v)   # a variable's value, as an array
    arr = _to_numpy(value, dt)
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        if arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape).copy()
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor "
                            f"{value!r} (converted from {value!r}) has {arr.size} elements, but "
                            f"got `shape` {shape} with {int(np.prod(shape))} elements).")
    return Tensor(arr, dt if dt is dtypes.bfloat16 else None)


def is_tensor(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor") or hasattr(x, "_engine_variable")


def check_numeric(t, op):
    """Raise TensorFlow's error when a string tensor reaches a math op."""
    if t._v.dtype.kind == "O":
        from sim.i18n import t as tr
        raise InvalidArgumentError(f"Value for attr 'T' of string is not in the list of allowed "
                                   f"values [Op:{op}]. " + tr("engine.string_math", op=op))
