"""Reductions (``tf.reduce_sum`` and friends) and ``tf.argmax``/``argmin``.

The gradient of a reduction broadcasts the output gradient back over the reduced axes;
max/min share it equally between tied maxima, as TensorFlow does.
"""
from __future__ import annotations

import numpy as np

from sim.engine import conversion, dtypes
from sim.engine.ops import _tgrad
from sim.engine.ops._core import axes as _axes
from sim.engine.ops._core import out, tensor
from sim.engine.tensor import check_numeric


def _expand(g, ax, keepdims, shape):
    """The output gradient reshaped with the reduced axes kept, broadcast to the input shape."""
    if not keepdims:
        g = np.expand_dims(g, ax) if ax else g
    return np.broadcast_to(g, shape)


def _reducer(np_fn, op, grad, tgrad=None):
    """A reduction; ``tgrad(e, x, y_kept, ax)`` is its gradient on Tensors, given the output
    gradient ``e`` already broadcast back to the input's shape and the output ``y_kept`` with
    the reduced axes kept."""
    def f(input_tensor, axis=None, keepdims=False, name=None):
        x = tensor(input_tensor)
        check_numeric(x, op)
        if x._v.dtype.kind == "b" and op not in ("Any", "All"):
            conversion.allowed(x, conversion.REAL, op)
        a = x._v
        ax = _axes(axis, a.ndim, op)
        v = np.asarray(np_fn(a, axis=ax, keepdims=keepdims))
        if v.dtype != a.dtype and a.dtype.kind != "b":
            v = v.astype(a.dtype)
        if grad is None or a.dtype.kind != "f":
            return out(v, (x,), (None,), a.size, x._dt)
        return out(v, (x,), (lambda g: grad(_expand(g, ax, keepdims, a.shape), a, ax, v, keepdims),),
                   a.size, x._dt, lambda i, g, xs, y: _treduce(tgrad, g, xs[0], y, ax))
    f.__name__ = op
    return f


def _treduce(tgrad, g, x, y, ax):
    from sim.engine.ops import array
    kept = _tgrad.keepdims_shape(x._v.shape, ax)
    e = array.broadcast_to(array.reshape(g, kept), x._v.shape)
    return tgrad(e, x, array.reshape(y, kept), ax)


def _tsum(e, x, y, ax):
    return e


def _tmean(e, x, y, ax):
    from sim.engine.ops import math
    n = 1
    for i in ax:
        n *= x._v.shape[i]
    return math.multiply(e, 1.0 / max(n, 1))


def _textreme(e, x, y, ax):
    from sim.engine.ops import math
    hit = _tgrad.constant(x._v == y._v, x)
    return math.multiply(e, _tgrad.constant(hit._v / hit._v.sum(axis=ax, keepdims=True), x))


def _tprod(e, x, y, ax):
    from sim.engine.ops import indexing, math
    nonzero = math.not_equal(x, 0.0)
    safe = indexing.where(nonzero, x, 1.0)
    return indexing.where(nonzero, math.divide(math.multiply(e, y), safe), 0.0)


def _tlogsumexp(e, x, y, ax):
    from sim.engine.ops import math
    return math.multiply(e, math.exp(math.subtract(x, y)))


def _grad_sum(g, a, ax, v, keepdims):
    return np.array(g)


def _grad_mean(g, a, ax, v, keepdims):
    n = 1
    for i in ax:
        n *= a.shape[i]
    return g / max(n, 1)


def _grad_extreme(g, a, ax, v, keepdims):
    vk = v if keepdims else (np.expand_dims(v, ax) if ax else v)
    hit = (a == vk)
    return g * hit / hit.sum(axis=ax, keepdims=True)


def _grad_prod(g, a, ax, v, keepdims):
    vk = v if keepdims else (np.expand_dims(v, ax) if ax else v)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a != 0, g * vk / np.where(a != 0, a, 1), 0)


def _grad_logsumexp(g, a, ax, v, keepdims):
    vk = v if keepdims else (np.expand_dims(v, ax) if ax else v)
    return g * np.exp(a - vk)


def _logsumexp(a, axis, keepdims):
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)


reduce_sum = _reducer(np.sum, "Sum", _grad_sum, _tsum)
reduce_mean = _reducer(np.mean, "Mean", _grad_mean, _tmean)
reduce_max = _reducer(np.max, "Max", _grad_extreme, _textreme)
reduce_min = _reducer(np.min, "Min", _grad_extreme, _textreme)
reduce_prod = _reducer(np.prod, "Prod", _grad_prod, _tprod)
reduce_logsumexp = _reducer(_logsumexp, "LogSumExp", _grad_logsumexp, _tlogsumexp)
reduce_any = _reducer(np.any, "Any", None)
reduce_all = _reducer(np.all, "All", None)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    from sim.engine.ops import math
    x = tensor(input_tensor)
    mean = reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(math.square(math.subtract(x, mean)), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    from sim.engine.ops import math
    return math.sqrt(reduce_variance(input_tensor, axis, keepdims))


def _arg(np_fn, op):
    def f(input, axis=None, output_type=dtypes.int64, name=None):
        x = tensor(input)
        conversion.allowed(x, conversion.REAL, op)
        a = x._v
        ax = _axes(0 if axis is None else axis, a.ndim, op)[0]
        v = np_fn(a, axis=ax).astype(dtypes.as_dtype(output_type).as_numpy_dtype)
        return out(v, (x,), None, a.size)
    f.__name__ = op
    return f


argmax = _arg(np.argmax, "ArgMax")
argmin = _arg(np.argmin, "ArgMin")
