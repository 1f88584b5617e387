"""Pieces the Tensor-level gradients (``tgrad``) of the ops share: the adjoint of broadcasting,
a constant mask, the per-op wrappers of elementwise gradients. Everything here runs engine ops,
so a tape that is recording while a gradient is taken records it (sim/engine/higher_order.py).
"""
from __future__ import annotations

import numpy as np

from sim.engine.tensor import Tensor


def unbroadcast(g, shape):
    """Sum ``g`` back to ``shape``: the adjoint of broadcasting, as recorded ops."""
    from sim.engine.ops import array, reduce
    shape = tuple(shape)
    gs = g._v.shape
    if gs == shape:
        return g
    extra = len(gs) - len(shape)
    if extra:
        g = reduce.reduce_sum(g, axis=list(range(extra)))
    axes = [i for i, d in enumerate(shape) if d == 1 and g._v.shape[i] != 1]
    if axes:
        g = reduce.reduce_sum(g, axis=axes, keepdims=True)
    return g if g._v.shape == shape else array.reshape(g, shape)


def constant(array_, like):
    """A NumPy array as a constant Tensor of ``like``'s dtype (masks, one-hots, scales)."""
    return Tensor(np.asarray(array_, dtype=like._v.dtype))


def swap_last(t):
    """The transpose of the last two axes (a matrix, or a batch of them)."""
    from sim.engine.ops import array
    n = t._v.ndim
    return array.transpose(t, list(range(n - 2)) + [n - 1, n - 2])


def keepdims_shape(shape, axes):
    """``shape`` with the reduced ``axes`` kept as 1 (where a reduction's gradient is reshaped)."""
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


class Unary:
    """``tgrad`` of an elementwise op from ``fn(g, x, y)`` (x input, y output)."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, i, g, inputs, out):
        return self.fn(g, inputs[0], out)


class Binary:
    """``tgrad`` of a broadcasting binary op from ``fa(g, x, y, z)``/``fb``, summed back to
    each input's shape."""

    __slots__ = ("fa", "fb")

    def __init__(self, fa, fb):
        self.fa, self.fb = fa, fb

    def __call__(self, i, g, inputs, out):
        x, y = inputs
        return unbroadcast((self.fa if i == 0 else self.fb)(g, x, y, out), inputs[i]._v.shape)
