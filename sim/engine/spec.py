"""``tf.TensorSpec``: the shape and dtype of a value (what ``element_spec`` holds)."""
from __future__ import annotations

from sim.engine import dtypes
from sim.engine.shape import TensorShape


class TensorSpec:
    """Describes a tensor: ``shape`` (TensorShape, may have None dims), ``dtype``, ``name``."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other):
        if isinstance(other, TensorSpec):
            return self.dtype == other.dtype and self.shape.is_compatible_with(other.shape)
        return self.dtype == other.dtype and self.shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype is other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype.name, self.name))

    def __repr__(self):
        name = "None" if self.name is None else repr(self.name)
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={name})"
