"""Indexing ops (gather, one_hot, where, ``t[key]``) with their gradients.

Their gradients scatter-add back into a zero tensor of the input's shape. Each is written twice:
on arrays, and as ops of their own (``_gather_adjoint``, ``_getitem_adjoint``) whose gradient is
the gather again, so a gradient of a gradient works.
"""
from __future__ import annotations

import builtins

import numpy as np

from sim.engine import dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops import _tgrad
from sim.engine.ops._core import binary, out, tensor, unbroadcast
from sim.engine.tensor import Tensor


def _scatter_add(z, idx, g):
    """``np.add.at(z, idx, g)`` along axis 0, bit for bit, without ufunc.at's per-element loop:
    the k-th occurrences of every index are added together in one vectorized step, k = 0, 1..."""
    flat = idx.reshape(-1)
    rows = g.reshape((flat.size,) + z.shape[1:])
    if flat.size < 2 or z.ndim == 1:
        np.add.at(z, flat, rows)
        return
    order = np.argsort(flat, kind="stable")
    sorted_idx = flat[order]
    new = np.r_[True, sorted_idx[1:] != sorted_idx[:-1]]
    starts = np.flatnonzero(new)
    rank = np.arange(flat.size) - starts[np.cumsum(new) - 1]
    for k in range(int(rank.max()) + 1):
        sel = order[rank == k]
        z[flat[sel]] += rows[sel]


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """``tf.gather``: rows (or slices along ``axis``) of params; gradient scatter-adds back."""
    x = tensor(params)
    idx = np.asarray(tensor(indices)._v)
    a = x._v
    ax = 0 if axis is None else int(axis) % a.ndim
    n = a.shape[ax]
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        pos = tuple(int(i) for i in np.argwhere(bad)[0])
        at = ",".join(map(str, pos))
        raise InvalidArgumentError(f"indices[{at}] = {int(idx[pos])} is not in [0, {n}) "
                                   f"[Op:GatherV2]")
    v = np.take(a, idx, axis=ax)
    return out(v, (x,), (lambda g: _scatter_rows(g, idx, ax, a.shape),), 0, x._dt,
               lambda i, g, xs, y: _gather_adjoint(g, idx, ax, a.shape))


def _scatter_rows(g, idx, ax, shape):
    """The adjoint of ``np.take(a, idx, axis=ax)``: add the rows of ``g`` at ``idx``."""
    z = np.zeros(shape, g.dtype)
    zm, gm = np.moveaxis(z, ax, 0), np.moveaxis(g, list(builtins.range(ax, ax + idx.ndim)),
                                               list(builtins.range(idx.ndim)))
    _scatter_add(zm, idx, gm)
    return z


def _gather_adjoint(g, idx, ax, shape):
    """gather's gradient as an op, so it can be differentiated again (its gradient: the gather)."""
    v = _scatter_rows(g._v, idx, ax, shape)
    return out(v, (g,), (lambda gg: np.take(gg, idx, axis=ax),), 0, g._dt,
               lambda i, gg, xs, y: gather(gg, idx, axis=ax))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    idx = np.asarray(tensor(indices)._v)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32
    on = 1 if on_value is None else np.asarray(on_value)
    off = 0 if off_value is None else np.asarray(off_value)
    hot = idx[..., None] == np.arange(int(depth))
    v = np.where(hot, on, off).astype(dt.as_numpy_dtype)
    if axis is not None and axis != -1:
        v = np.moveaxis(v, -1, axis)
    return out(v, (), None, 0)


def where(condition, x=None, y=None, name=None):
    c = tensor(condition)
    cv = c._v
    if x is None and y is None:
        return out(np.argwhere(cv).astype(np.int64), (c,), None, cv.size)
    x, y = binary(x, y, "SelectV2")
    a, b = x._v, y._v
    v = np.where(cv, a, b)
    return out(v, (x, y), (lambda g: unbroadcast(np.where(cv, g, 0), a.shape),
                           lambda g: unbroadcast(np.where(cv, 0, g), b.shape)), v.size, x._dt,
               lambda i, g, xs, z: _tgrad.unbroadcast(
                   where(c, g, 0.0) if i == 0 else where(c, 0.0, g), xs[i]._v.shape))


def getitem(t, key):
    """``t[key]``: NumPy-style indexing (ints, slices, None, Ellipsis, int tensors)."""
    x = tensor(t)
    a = x._v
    key = _key(key)
    try:
        v = a[key]
    except IndexError as e:
        raise InvalidArgumentError(f"{e} [Op:StridedSlice]") from None

    return out(np.array(v) if not isinstance(v, np.ndarray) else v, (x,),
               (lambda g: _scatter_at(g, key, a.shape),), 0, x._dt,
               lambda i, g, xs, y: _getitem_adjoint(g, key, a.shape))


def _scatter_at(g, key, shape):
    z = np.zeros(shape, g.dtype)
    np.add.at(z, key, g)
    return z


def _getitem_adjoint(g, key, shape):
    """``t[key]``'s gradient as an op, so it can be differentiated again (its gradient: ``g[key]``)."""
    return out(_scatter_at(g._v, key, shape), (g,), (lambda gg: np.asarray(gg[key]),), 0, g._dt,
               lambda i, gg, xs, y: getitem(gg, key))


def _key(key):
    if isinstance(key, tuple):
        return tuple(_key1(k) for k in key)
    return _key1(key)


def _key1(k):
    if isinstance(k, Tensor) or hasattr(k, "_as_tensor"):
        v = tensor(k)._v
        return int(v) if v.ndim == 0 else v
    if isinstance(k, slice):
        return slice(*(int(tensor(s)._v) if isinstance(s, Tensor) else s
                       for s in (k.start, k.stop, k.step)))
    if isinstance(k, list):
        return np.asarray(k)
    return k
