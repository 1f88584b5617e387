"""Shape and array ops (reshape, transpose, concat, split, tile, pad, zeros...) with their gradients.

Most gradients here only move numbers around: the adjoint of a reshape is a reshape back, of a
pad the slice it padded. Each is written twice: on arrays, and on Tensors (``tgrad``, for
higher-order gradients). Indexing (gather, where, ``t[key]``) is ``indexing.py``.
"""
from __future__ import annotations

import builtins

import numpy as np

from sim.engine import conversion, dtypes
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops import _tgrad, indexing
from sim.engine.ops._core import out, tensor, unbroadcast
from sim.engine.tensor import Tensor, _first_dtype


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
    if not isinstance(values, (list, tuple)):
        values = [values]
    xs = [tensor(values[0])] if len(values) == 1 else conversion.match(values, "ConcatV2")
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
    if axis == 0 and _first_dtype(values) is None:   # no tensor among them
        try:   # array_ops_stack.stack: a list of constants is converted as one value first
            return tensor(values)
        except (TypeError, ValueError):
            pass
    xs = conversion.match(values, "Pack")
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
    return out(np.full(_ints(dims), val._v, dtype=val._v.dtype), (), None, 0, val._dt)


_RANGE_ORDER = ("int32", "int64", "float16", "bfloat16", "float32", "float64")


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """``tf.range`` as math_ops.range: each bound converted on its own (Python floats are
    float32), the widest of their dtypes in int32 < int64 < ... < float64 wins."""
    if limit is None:
        start, limit = 0, start
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    ts = [conversion.read(v) if type(v) is Tensor else tensor(v, dt) for v in (start, limit, delta)]
    if dt is None:
        if not all(t.dtype.name in _RANGE_ORDER for t in ts):
            raise AssertionError()
        dt = max((t.dtype for t in ts), key=lambda d: _RANGE_ORDER.index(d.name))
    npd = dt.as_numpy_dtype
    lo, hi, step = (np.asarray(t._v).astype(npd)[()] for t in ts)
    if step == 0 or (step > 0 and lo > hi) or (step < 0 and lo < hi):
        need = "delta != 0" if step == 0 else \
            f"start <= limit when delta > 0: {lo}/{hi}" if step > 0 else \
            f"start >= limit when delta < 0: {lo}/{hi}"
        raise InvalidArgumentError(f"Requires {need} [Op:Range]")
    return out(np.arange(lo, hi, step, dtype=npd), (), None, 0)


def linspace(start, stop, num, name=None, axis=0):
    """``tf.linspace`` (math_ops.linspace_nd): ``stop`` takes ``start``'s dtype; integer bounds
    give float64 values (the step is an integer true division)."""
    s = tensor(start)
    e = tensor(stop, s.dtype)
    conversion.allowed(s, conversion.SIGNED, "LinSpace")
    dt = s.dtype if s.dtype.is_floating else dtypes.float64
    return out(np.linspace(s._v, e._v, int(num), axis=axis).astype(dt.as_numpy_dtype),
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
    return out(v, (x,), (lambda g: g[idx],), 0, x._dt, lambda i, g, xs, y: indexing.getitem(g, idx))
