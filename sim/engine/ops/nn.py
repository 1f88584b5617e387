"""Neural-network ops (``tf.nn``): activations, cross-entropies, l2_loss, dropout.

The cross-entropies are written in TensorFlow's numerically stable forms, e.g.
``max(x, 0) - x*z + log(1 + exp(-|x|))`` for sigmoid cross-entropy.
"""
from __future__ import annotations

import numpy as np

from sim.engine.conversion import FLOAT, REAL, allowed
from sim.engine.errors import InvalidArgumentError
from sim.engine.ops import _tgrad
from sim.engine.ops import array as _array
from sim.engine.ops import math as m
from sim.engine.ops import reduce as _reduce
from sim.engine.ops._core import binary, out, tensor
from sim.engine.ops.indexing import gather, where as _where


def _positive(x):
    return m.greater(x, 0.0)


relu = m._unary(lambda a: np.maximum(a, 0), "Relu", lambda g, a, v: g * (a > 0),
                tgrad=lambda g, x, y: m.multiply(g, m.cast(_positive(x), g.dtype)), kinds=REAL)
relu6 = m._unary(lambda a: np.clip(a, 0, 6), "Relu6", lambda g, a, v: g * ((a > 0) & (a < 6)),
                 tgrad=lambda g, x, y: m.multiply(g, _tgrad.constant((x._v > 0) & (x._v < 6), g)),
                 kinds=REAL)
elu = m._unary(lambda a: np.where(a > 0, a, np.expm1(np.minimum(a, 0))), "Elu",
               lambda g, a, v: g * np.where(a > 0, 1, v + 1),
               tgrad=lambda g, x, y: _where(_positive(x), g, m.multiply(g, m.add(y, 1.0))))
softsign = m._unary(lambda a: a / (1 + np.abs(a)), "Softsign",
                    lambda g, a, v: g / (1 + np.abs(a)) ** 2,
                    tgrad=lambda g, x, y: m.divide(g, m.square(m.add(m.abs(x), 1.0))))
sigmoid, tanh, softplus = m.sigmoid, m.tanh, m.softplus
_SELU_A, _SELU_S = 1.6732632423543772, 1.0507009873554805
selu = m._unary(lambda a: _SELU_S * np.where(a > 0, a, _SELU_A * np.expm1(np.minimum(a, 0))),
                "Selu", lambda g, a, v: g * np.where(a > 0, _SELU_S, v + _SELU_S * _SELU_A),
                tgrad=lambda g, x, y: _where(
                    _positive(x), m.multiply(g, _SELU_S), m.multiply(g, m.add(y, _SELU_S * _SELU_A))))


def leaky_relu(features, alpha=0.2, name=None):
    x = tensor(features)
    a = x._v
    return out(np.where(a > 0, a, alpha * a), (x,), (lambda g: g * np.where(a > 0, 1, alpha),),
               a.size, x._dt,
               lambda i, g, xs, y: m.multiply(g, _tgrad.constant(np.where(a > 0, 1, alpha), g)))


def silu(features, beta=1.0):
    return m.multiply(features, m.sigmoid(m.multiply(features, beta)))


swish = silu


def gelu(features, approximate=False, name=None):
    """x * Phi(x) (exact, with erf) or TensorFlow's tanh approximation."""
    x = tensor(features)
    if approximate:
        c = np.sqrt(2 / np.pi).astype(x._v.dtype)
        inner = m.multiply(m.add(x, m.multiply(m.pow(x, 3.0), 0.044715)), c)
        return m.multiply(m.multiply(x, 0.5), m.add(m.tanh(inner), 1.0))
    cdf = m.multiply(m.add(m.erf(m.multiply(x, float(1 / np.sqrt(2)))), 1.0), 0.5)
    return m.multiply(x, cdf)


def _softmax_np(a, ax):
    e = np.exp(a - a.max(axis=ax, keepdims=True))
    return e / e.sum(axis=ax, keepdims=True)


def softmax(logits, axis=None, name=None):
    x = tensor(logits)
    allowed(x, FLOAT, "Softmax")
    ax = -1 if axis is None else int(axis)
    v = _softmax_np(x._v, ax)
    return out(v, (x,), (lambda g: v * (g - (g * v).sum(axis=ax, keepdims=True)),),
               5 * v.size, x._dt, lambda i, g, xs, y: m.multiply(
                   y, m.subtract(g, _reduce.reduce_sum(m.multiply(g, y), ax, keepdims=True))))


def log_softmax(logits, axis=None, name=None):
    x = tensor(logits)
    allowed(x, FLOAT, "LogSoftmax")
    a = x._v
    ax = -1 if axis is None else int(axis)
    sh = a - a.max(axis=ax, keepdims=True)
    v = sh - np.log(np.exp(sh).sum(axis=ax, keepdims=True))
    return out(v, (x,), (lambda g: g - np.exp(v) * g.sum(axis=ax, keepdims=True),),
               5 * v.size, x._dt, lambda i, g, xs, y: m.subtract(
                   g, m.multiply(m.exp(y), _reduce.reduce_sum(g, ax, keepdims=True))))


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x*z + log(1 + exp(-|x|)); d/dx = sigmoid(x) - z, d/dz = -x."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    x, z = binary(logits, labels, "SigmoidCrossEntropyWithLogits")
    _same_shape(x, z, "logits and labels must have the same shape")
    a, b = x._v, z._v
    v = np.maximum(a, 0) - a * b + np.log1p(np.exp(-np.abs(a)))
    return out(v, (x, z), (lambda g: g * (m._sigmoid(a) - b), lambda g: -g * a), 5 * v.size, x._dt,
               _tsigmoid_ce)


def _tsigmoid_ce(i, g, inputs, out_):
    x, z = inputs
    if i == 0:
        return m.multiply(g, m.subtract(m.sigmoid(x), z))
    return m.negative(m.multiply(g, x))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) along ``axis``."""
    x, z = binary(logits, labels, "SoftmaxCrossEntropyWithLogits")
    _same_shape(x, z, "logits and labels must be broadcastable")
    a, b = x._v, z._v
    sh = a - a.max(axis=axis, keepdims=True)
    logp = sh - np.log(np.exp(sh).sum(axis=axis, keepdims=True))
    v = -(b * logp).sum(axis=axis)

    def grad_logits(g):
        g = np.expand_dims(g, axis)
        return g * (np.exp(logp) * b.sum(axis=axis, keepdims=True) - b)
    def tgrad(i, g, inputs, out_):
        x, z = inputs
        ge = _array.expand_dims(g, axis)
        if i == 0:
            total = _reduce.reduce_sum(z, axis, keepdims=True)
            return m.multiply(ge, m.subtract(m.multiply(softmax(x, axis), total), z))
        return m.negative(m.multiply(ge, log_softmax(x, axis)))
    return out(v, (x, z), (grad_logits, lambda g: -np.expand_dims(g, axis) * logp), 6 * a.size,
               x._dt, tgrad)


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[label]; d/dlogits = softmax - one_hot(label)."""
    x = tensor(logits)
    lab = np.asarray(tensor(labels)._v)
    a = x._v
    if lab.dtype.kind not in "iu":
        raise ValueError(f"labels must be integers (class ids), got dtype {lab.dtype}; "
                         "use softmax_cross_entropy_with_logits for one-hot labels.")
    if lab.shape != a.shape[:-1]:
        raise InvalidArgumentError(
            f"logits and labels must have the same first dimension, got logits shape "
            f"{list(a.shape)} and labels shape {list(lab.shape)} "
            f"[Op:SparseSoftmaxCrossEntropyWithLogits]")
    n = a.shape[-1]
    bad = (lab < 0) | (lab >= n)
    if bad.any():
        from sim.i18n import t
        raise InvalidArgumentError(
            f"Received a label value of {int(lab[bad].flat[0])} which is outside the valid range "
            f"of [0, {n}).  Label values: {' '.join(map(str, lab.reshape(-1)))} "
            f"[Op:SparseSoftmaxCrossEntropyWithLogits] "
            + t("misuse.label_range", label=int(lab[bad].flat[0]), n=n, last=n - 1))
    sh = a - a.max(axis=-1, keepdims=True)
    logp = sh - np.log(np.exp(sh).sum(axis=-1, keepdims=True))
    v = -np.take_along_axis(logp, lab[..., None], axis=-1)[..., 0]

    def grad(g):
        d = np.exp(logp)
        np.put_along_axis(d, lab[..., None], np.take_along_axis(d, lab[..., None], -1) - 1, -1)
        return g[..., None] * d

    def tgrad(i, g, inputs, out_):
        hot = _tgrad.constant(lab[..., None] == np.arange(n), g)
        return m.multiply(_array.expand_dims(g, -1), m.subtract(softmax(inputs[0]), hot))
    return out(v, (x,), (grad,), 6 * a.size, x._dt, tgrad)


def _same_shape(x, z, what):
    if x._v.shape != z._v.shape:
        raise ValueError(f"{what} ({list(x._v.shape)} vs {list(z._v.shape)})")


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    x = tensor(t)
    a = x._v
    return out(np.asarray((a * a).sum() / 2, a.dtype), (x,), (lambda g: g * a,), 2 * a.size, x._dt,
               lambda i, g, xs, y: m.multiply(g, xs[0]))


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows ``ids`` of ``params``; a ShardedVariable looks them up shard by shard."""
    if getattr(params, "_is_sharded_variable", False):
        return params.embedding_lookup(ids)
    return gather(params, ids, axis=0)


def bias_add(value, bias, data_format=None, name=None):
    return m.add(value, bias)


def moments(x, axes, shift=None, keepdims=False, name=None):
    from sim.engine.ops.reduce import reduce_mean
    mean = reduce_mean(x, axes, keepdims=True)
    var = reduce_mean(m.squared_difference(x, mean), axes, keepdims=True)
    if not keepdims:
        from sim.engine.ops.array import squeeze
        mean, var = squeeze(mean, axes), squeeze(var, axes)
    return mean, var


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability ``rate``, scale the rest by 1/(1-rate) (seeded)."""
    from sim.engine.ops.random import uniform
    x = tensor(x)
    if not 0 <= float(rate) < 1:
        raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), got {rate}")
    if float(rate) == 0:
        return x
    shape = x._v.shape if noise_shape is None else noise_shape
    keep = uniform(shape, seed=seed, dtype=x.dtype)._v >= rate
    scale = np.asarray(1 / (1 - float(rate)), x._v.dtype)
    a = x._v
    return out(a * keep * scale, (x,), (lambda g: g * keep * scale,), 2 * a.size, x._dt,
               lambda i, g, xs, y: m.multiply(g, _tgrad.constant(keep * scale, g)))
