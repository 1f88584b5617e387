"""A reusable gradient check: tape gradients against central finite differences in float64."""
from __future__ import annotations

import numpy as np

import sim.tf as tf


def numeric_grad(f, arrays, i, eps=1e-6):
    """d f / d arrays[i] by central differences; f takes NumPy arrays, returns a float."""
    x = arrays[i]
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        old = x[idx]
        x[idx] = old + eps
        hi = f(arrays)
        x[idx] = old - eps
        lo = f(arrays)
        x[idx] = old
        g[idx] = (hi - lo) / (2 * eps)
    return g


def check_gradients(fn, *arrays, wrt=None, rtol=1e-5, atol=1e-7, seed=0):
    """Assert the tape's gradient of ``sum(fn(*tensors) * w)`` (w random, fixed) matches finite
    differences for each input in ``wrt`` (default: all)."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]
    wrt = range(len(arrays)) if wrt is None else wrt
    probe = np.asarray(fn(*[tf.constant(a) for a in arrays]))
    w = np.random.default_rng(seed).uniform(0.5, 1.5, size=probe.shape)

    def loss(arrs):
        return float(np.sum(np.asarray(fn(*[tf.constant(a) for a in arrs])) * w))

    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as tape:
        for x in xs:
            tape.watch(x)
        y = tf.reduce_sum(fn(*xs) * tf.constant(w))
    for i in wrt:
        got = tape.gradient(y, xs[i])
        want = numeric_grad(loss, arrays, i)
        assert got is not None, f"no gradient for input {i}"
        np.testing.assert_allclose(got.numpy(), want, rtol=rtol, atol=atol,
                                   err_msg=f"gradient of input {i}")
