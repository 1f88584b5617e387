"""Shape and array ops (reshape, transpose, concat, gather, slicing...) with their gradients.

Most gradients here only move numbers around: the adjoint of a reshape is a reshape back,
of a gather a scatter-add, of a slice a zero tensor with the slice filled in. Each is written
twice: on arrays, and on Tensors (``tgrad``, for higher-order gradients), where the scatter-adds
are ops of their own (``_gather_adjoint``, ``_getitem_adjoint``) whose gradient is the gather.
"""
from __future__ import annotations

import builtins

import numpy as np

from sim.engine import dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops import _tgrad
from sim.engine.ops._core import binary, out, tensor, unbroadcast
from sim.engine.tensor import Tensor, _to_numpy


def _ints(shape):
    if isinstance(shape, Tensor):
        return [int(d) for d in shape._v.reshape(-1)]
    if hasattr(shape, "as_list"):
        return shape.as_list()
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return [int(d) for d in shape]


def reshape(tensor_, shape, name=None):
    x = tensor(tensor_)
    a = x._v
    dims = _ints(shape)
    known = int(np.prod([d for d in dims if d != -1]))
    if (-1 not in dims and known != a.size) or (-1 in dims and (known == 0 or a.size % known)):
        from sim.i18n import t
        raise InvalidArgumentError(
            f"Input to reshape is a tensor with {a.size} values, but the requested shape has "
            f"{known} [Op:Reshape] " + t("engine.reshape", size=a.size, shape=dims, have=a.shape))
    v = a.reshape(dims)
    return out(v, (x,), (lambda g: g.reshape(a.shape),), 0, x._dt, _reshape_back)


def _reshape_back(i, g, inputs, y):
    return reshape(g, inputs[0]._v.shape)


def transpose(a, perm=None, conjugate=False, name=None):
    x = tensor(a)
    p = list(reversed(builtins.range(x._v.ndim))) if perm is None else _ints(perm)
    inv = np.argsort(p)
    return out(np.transpose(x._v, p), (x,), (lambda g: np.transpose(g, inv),), 0, x._dt,
               lambda i, g, xs, y: transpose(g, inv))


def expand_dims(input, axis, name=None):
    x = tensor(input)
    a = x._v
    return out(np.expand_dims(a, int(axis)), (x,), (lambda g: g.reshape(a.shape),), 0, x._dt,
               _reshape_back)


def squeeze(input, axis=None, name=None):
    x = tensor(input)
    a = x._v
    ax = None if axis is None else tuple(_ints(axis))
    if ax is not None and any(a.shape[i] != 1 for i in ax):
        raise InvalidArgumentError(f"Can not squeeze dim[{ax[0]}], expected a dimension of 1, "
                                   f"got {a.shape[ax[0]]} [Op:Squeeze]")
    return out(np.squeeze(a, ax), (x,), (lambda g: g.reshape(a.shape),), 0, x._dt, _reshape_back)


def concat(values, axis, name=None):
    xs = [tensor(v) for v in values]
    ax = int(axis) % max(xs[0]._v.ndim, 1)
    for i, x in enumerate(xs[1:], 1):
        s0, si = xs[0]._v.shape, x._v.shape
        if len(s0) != len(si) or any(a != b for k, (a, b) in enumerate(zip(s0, si)) if k != ax):
            raise InvalidArgumentError(
                f"ConcatOp : Dimension {ax} in both shapes must be equal: shape[0] = "
                f"{list(s0)} vs. shape[{i}] = {list(si)} [Op:ConcatV2]")
    v = np.concatenate([x._v for x in xs], axis=ax)
    edges = np.cumsum([0] + [x._v.shape[ax] for x in xs])
    fns = tuple((lambda g, lo=lo, hi=hi: np.take(g, builtins.range(lo, hi), axis=ax))
                for lo, hi in zip(edges[:-1], edges[1:]))
    return out(v, tuple(xs), fns, 0, xs[0]._dt,
               lambda i, g, xs, y: _slice_axis(g, ax, int(edges[i]), int(edges[i + 1])))


def stack(values, axis=0, name=None):
    xs = [tensor(v) for v in values]
    shapes = {x._v.shape for x in xs}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"Shapes of all inputs must match: values[0].shape = "
                                   f"{list(xs[0]._v.shape)} != values[1].shape = "
                                   f"{list(xs[1]._v.shape)} [Op:Pack]")
    v = np.stack([x._v for x in xs], axis=axis)
    ax = axis % v.ndim
    fns = tuple((lambda g, i=i: np.take(g, i, axis=ax)) for i in builtins.range(len(xs)))
    return out(v, tuple(xs), fns, 0, xs[0]._dt,
               lambda i, g, xs, y: reshape(_slice_axis(g, ax, i, i + 1), xs[i]._v.shape))


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    x = tensor(value)
    a = x._v
    ax = int(axis) % a.ndim
    if isinstance(num_or_size_splits, (int, np.integer)):
        n = int(num_or_size_splits)
        if a.shape[ax] % n:
            raise InvalidArgumentError(
                f"Number of ways to split should evenly divide the split dimension, but got "
                f"split_dim {ax} (size = {a.shape[ax]}) and num_split {n} [Op:Split]")
        sizes = [a.shape[ax] // n] * n
    else:
        sizes = _ints(num_or_size_splits)
        if -1 in sizes:
            sizes[sizes.index(-1)] = a.shape[ax] - (sum(sizes) + 1)
    edges = np.cumsum([0] + sizes)
    return [_slice_axis(x, ax, int(lo), int(hi)) for lo, hi in zip(edges[:-1], edges[1:])]


def _slice_axis(x, ax, lo, hi):
    a = x._v
    idx = (slice(None),) * ax + (slice(lo, hi),)

    def grad(g):
        z = np.zeros_like(a)
        z[idx] = g
        return z

    def tgrad(i, g, inputs, y):
        widths = [[0, 0] for _ in builtins.range(a.ndim)]
        widths[ax] = [lo, a.shape[ax] - hi]
        return pad(g, widths)
    return out(a[idx], (x,), (grad,), 0, x._dt, tgrad)


def unstack(value, num=None, axis=0, name=None):
    x = tensor(value)
    ax = axis % x._v.ndim
    return [squeeze(p, ax) for p in split(x, x._v.shape[ax], axis=ax)]


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


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    x = tensor(t)
    a = x._v
    lo = np.asarray(tensor(clip_value_min, x.dtype)._v)
    hi = np.asarray(tensor(clip_value_max, x.dtype)._v)
    v = np.clip(a, lo, hi)
    return out(v, (x,), (lambda g: g * ((a >= lo) & (a <= hi)),), v.size, x._dt,
               lambda i, g, xs, y: _times(g, (a >= lo) & (a <= hi)))


def _times(g, mask):
    """``g`` times a constant 0/1 (or scale) array, recorded."""
    from sim.engine.ops.math import multiply
    return multiply(g, _tgrad.constant(mask, g))


def broadcast_to(input, shape, name=None):
    x = tensor(input)
    a = x._v
    try:
        v = np.broadcast_to(a, _ints(shape)).copy()
    except ValueError:
        raise InvalidArgumentError(f"Incompatible shapes: {list(a.shape)} vs. {_ints(shape)} "
                                   f"[Op:BroadcastTo]") from None
    return out(v, (x,), (lambda g: unbroadcast(g, a.shape),), 0, x._dt,
               lambda i, g, xs, y: _tgrad.unbroadcast(g, xs[0]._v.shape))


def tile(input, multiples, name=None):
    x = tensor(input)
    a = x._v
    m = _ints(multiples)
    v = np.tile(a, m)

    inter = [d for pair in zip(m, a.shape) for d in pair]
    tiled_axes = list(builtins.range(0, 2 * a.ndim, 2))

    def grad(g):
        return g.reshape(inter).sum(axis=tuple(tiled_axes))

    def tgrad(i, g, inputs, y):
        from sim.engine.ops.reduce import reduce_sum
        return reduce_sum(reshape(g, inter), axis=tiled_axes)
    return out(v, (x,), (grad,), 0, x._dt, tgrad)


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


def identity(input, name=None):
    x = tensor(input)
    return out(x._v, (x,), (lambda g: g,), 0, x._dt, _pass)


def _pass(i, g, inputs, y):
    return g


def stop_gradient(input, name=None):
    x = tensor(input)
    return Tensor(x._v, x._dt)


def _dt(dtype, default=dtypes.float32):
    return default if dtype is None else dtypes.as_dtype(dtype)


def zeros(shape, dtype=dtypes.float32, name=None):
    return out(np.zeros(_ints(shape), _dt(dtype).as_numpy_dtype), (), None, 0)


def ones(shape, dtype=dtypes.float32, name=None):
    return out(np.ones(_ints(shape), _dt(dtype).as_numpy_dtype), (), None, 0)


def zeros_like(input, dtype=None, name=None):
    x = tensor(input)
    return out(np.zeros(x._v.shape, _dt(dtype, x.dtype).as_numpy_dtype), (), None, 0)


def ones_like(input, dtype=None, name=None):
    x = tensor(input)
    return out(np.ones(x._v.shape, _dt(dtype, x.dtype).as_numpy_dtype), (), None, 0)


def fill(dims, value, name=None):
    val = tensor(value)
    return out(np.full(_ints(dims), val._v), (), None, 0)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    vals = [tensor(v)._v if isinstance(v, Tensor) else v for v in (start, limit, delta)]
    if dtype is None:
        kind = np.result_type(*[_to_numpy(v, None) for v in vals])
        dt = dtypes.of_numpy(kind)
    else:
        dt = dtypes.as_dtype(dtype)
    return out(np.arange(*vals).astype(dt.as_numpy_dtype), (), None, 0)


def linspace(start, stop, num, name=None, axis=0):
    s = tensor(start)
    dt = s.dtype if s.dtype.is_floating else dtypes.float32
    return out(np.linspace(s._v, tensor(stop)._v, int(num), axis=axis).astype(dt.as_numpy_dtype),
               (), None, 0)


def shape(input, out_type=dtypes.int32, name=None):
    return out(np.array(tensor(input)._v.shape, dtypes.as_dtype(out_type).as_numpy_dtype), (), None, 0)


def size(input, out_type=dtypes.int32, name=None):
    return out(np.array(tensor(input)._v.size, dtypes.as_dtype(out_type).as_numpy_dtype), (), None, 0)


def rank(input, name=None):
    return out(np.array(tensor(input)._v.ndim, np.int32), (), None, 0)


def pad(tensor_, paddings, mode="CONSTANT", constant_values=0, name=None):
    x = tensor(tensor_)
    a = x._v
    p = np.asarray(tensor(paddings)._v).tolist()
    v = np.pad(a, p, mode="constant", constant_values=constant_values)
    idx = tuple(builtins.slice(lo, lo + n) for (lo, _), n in zip(p, a.shape))
    return out(v, (x,), (lambda g: g[idx],), 0, x._dt, lambda i, g, xs, y: getitem(g, idx))
