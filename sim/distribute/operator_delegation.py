"""Python's operators on a wrapper, answered by the value it stands for.

TensorFlow's wrappers (a distributed value, a ShardedVariable) take part in arithmetic as the
tensor they read as: ``mirrored + 1`` is the local component plus one, ``sharded * 2`` the
whole variable times two. ``delegate_operators(cls, "_get")`` installs each operator on ``cls``
as a call on ``self._get()``'s own operator.
"""
from __future__ import annotations

OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
             "__rtruediv__", "__matmul__", "__rmatmul__", "__neg__", "__pow__",
             "__lt__", "__le__", "__gt__", "__ge__")


def delegate_operators(cls, read: str, extra: tuple = ()):
    """Give ``cls`` every operator of ``OPERATORS`` (and ``extra``), applied to ``self.<read>()``."""
    for name in OPERATORS + tuple(extra):
        setattr(cls, name, _delegated(name, read))
    return cls


def _delegated(name, read):
    def op(self, *args):
        return getattr(getattr(self, read)(), name)(*args)
    op.__name__ = name
    return op
