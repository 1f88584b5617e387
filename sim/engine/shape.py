"""``tf.TensorShape``: a shape that compares equal to lists and tuples, with ``as_list()``."""
from __future__ import annotations


class TensorShape:
    """The static shape of a tensor; dimensions are ints or None (unknown)."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        self._dims = None if dims is None else tuple(None if d is None else int(d) for d in dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def is_compatible_with(self, other):
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return True
        return len(self._dims) == len(other._dims) and all(
            a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def concatenate(self, other):
        return TensorShape(self._dims + TensorShape(other)._dims)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        return iter(self._dims)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        if isinstance(other, TensorShape):
            return self._dims == other._dims
        if isinstance(other, (list, tuple)):
            return self._dims == tuple(other)
        return NotImplemented

    def __hash__(self):
        return hash(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __repr__(self):
        return "TensorShape(None)" if self._dims is None else f"TensorShape({list(self._dims)})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        inner = ", ".join("None" if d is None else str(d) for d in self._dims)
        return f"({inner},)" if len(self._dims) == 1 else f"({inner})"
