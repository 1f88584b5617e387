"""TensorFlow's dtypes (``tf.float32``...) as small objects over NumPy dtypes.

TensorFlow defaults differ from NumPy's: a Python float becomes float32 and a Python int
int32. ``infer`` applies those rules so ``tf.constant(1.5)`` has TensorFlow's dtype.
bfloat16 has no NumPy type: it is stored as float32 (rounded to bfloat16) and tagged.
"""
from __future__ import annotations

import numpy as np


class DType:
    """A TensorFlow dtype: ``name``, ``is_floating``, ``as_numpy_dtype``, ``size`` (bytes)."""

    __slots__ = ("name", "as_numpy_dtype", "size", "is_floating", "is_integer", "is_bool")

    def __init__(self, name, np_type, size, kind):
        self.name, self.as_numpy_dtype, self.size = name, np_type, size
        self.is_floating, self.is_integer, self.is_bool = kind == "f", kind == "i", kind == "b"

    @property
    def base_dtype(self):
        return self

    @property
    def is_complex(self):
        return False

    @property
    def min(self):
        return np.finfo(self.as_numpy_dtype).min if self.is_floating else np.iinfo(self.as_numpy_dtype).min

    @property
    def max(self):
        return np.finfo(self.as_numpy_dtype).max if self.is_floating else np.iinfo(self.as_numpy_dtype).max

    def __repr__(self):
        return f"tf.{self.name}"

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16, 2, "f")
bfloat16 = DType("bfloat16", np.float32, 2, "f")
float32 = DType("float32", np.float32, 4, "f")
float64 = DType("float64", np.float64, 8, "f")
int8 = DType("int8", np.int8, 1, "i")
int16 = DType("int16", np.int16, 2, "i")
int32 = DType("int32", np.int32, 4, "i")
int64 = DType("int64", np.int64, 8, "i")
uint8 = DType("uint8", np.uint8, 1, "i")
uint16 = DType("uint16", np.uint16, 2, "i")
uint32 = DType("uint32", np.uint32, 4, "i")
uint64 = DType("uint64", np.uint64, 8, "i")   # tf.random's full-range integers and keys
bool = DType("bool", np.bool_, 1, "b")  # noqa: A001 - TensorFlow's name
string = DType("string", np.object_, 8, "s")
half, double = float16, float64

ALL = (float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
       uint64, bool, string)
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, double=float64)
_BY_NUMPY = {np.dtype(d.as_numpy_dtype): d for d in ALL if d is not bfloat16}


def as_dtype(x) -> DType:
    """``tf.as_dtype``: a DType from a DType, a name, or a NumPy dtype/type."""
    if isinstance(x, DType):
        return x
    if isinstance(x, str) and x in _BY_NAME:
        return _BY_NAME[x]
    try:
        npd = np.dtype(x)
    except TypeError:
        raise TypeError(f"Cannot convert {x!r} to a TensorFlow DType.") from None
    if npd.kind in "US":
        return string
    if npd in _BY_NUMPY:
        return _BY_NUMPY[npd]
    raise TypeError(f"Cannot convert {x!r} to a TensorFlow DType.")


def of_numpy(npd) -> DType:
    """The DType of a NumPy array's dtype (fast path for tensors)."""
    d = _BY_NUMPY.get(npd)
    if d is None:
        return as_dtype(npd)
    return d
