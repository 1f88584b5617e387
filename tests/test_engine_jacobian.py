"""GradientTape.jacobian and batch_jacobian (TensorFlow's documented examples, and finite
differences), persistent tapes, the tape's documented edge cases, and the clear refusal of
higher-order gradients (sim.tf's backward pass runs on NumPy)."""
import numpy as np
import pytest

import sim.tf as tf


def test_jacobian_documented_example():
    with tf.GradientTape() as g:
        x = tf.constant([1.0, 2.0])
        g.watch(x)
        y = x * x
    np.testing.assert_allclose(g.jacobian(y, x).numpy(), [[2.0, 0.0], [0.0, 4.0]])


def test_batch_jacobian_documented_example():
    with tf.GradientTape() as g:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
        g.watch(x)
        y = x * x
    got = g.batch_jacobian(y, x)
    assert got.shape == (2, 2, 2)
    np.testing.assert_allclose(got.numpy(), [[[2, 0], [0, 4]], [[6, 0], [0, 8]]])


def _f(w, x):
    return tf.tanh(tf.matmul(x, w)) * 2.0


def test_jacobian_matches_finite_differences_for_a_layer():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(3, 4)))
    w0 = rng.normal(size=(4, 2))
    w = tf.Variable(w0)
    with tf.GradientTape(persistent=True) as tape:
        y = _f(w, x)
    j = tape.jacobian(y, w).numpy()
    assert j.shape == (3, 2, 4, 2)
    eps, numeric = 1e-6, np.zeros_like(j)
    for idx in np.ndindex(w0.shape):
        d = np.zeros_like(w0)
        d[idx] = eps
        numeric[(...,) + idx] = (_f(tf.constant(w0 + d), x).numpy()
                                 - _f(tf.constant(w0 - d), x).numpy()) / (2 * eps)
    np.testing.assert_allclose(j, numeric, rtol=1e-6, atol=1e-8)
    # the jacobian contracted with ones is the gradient of the sum (same persistent tape)
    np.testing.assert_allclose(j.sum(axis=(0, 1)), tape.gradient(y, w).numpy(), rtol=1e-12)


def test_batch_jacobian_is_the_diagonal_of_the_jacobian():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(5, 3)))
    w = tf.constant(rng.normal(size=(3, 2)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sigmoid(tf.matmul(x, w))
    full = tape.jacobian(y, x).numpy()
    per_example = tape.batch_jacobian(y, x).numpy()
    assert per_example.shape == (5, 2, 3)
    for b in range(5):
        np.testing.assert_allclose(per_example[b], full[b, :, b, :])
    with pytest.raises(ValueError, match="first dimension"):
        tape.batch_jacobian(y, tf.constant(np.ones((4, 3))))


def test_jacobian_counts_as_the_one_use_of_a_non_persistent_tape():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * 3.0
    tape.jacobian(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        tape.gradient(y, x)


def test_jacobian_unconnected_sources():
    x, z = tf.Variable([1.0, 2.0]), tf.Variable([5.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
    assert tape.jacobian(y, [x, z])[1] is None
    zeros = tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert zeros.shape == (2, 1) and not zeros.numpy().any()


def test_persistent_tape_gives_several_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    assert float(g.gradient(z, x)) == 108.0  # 4 x^3
    assert float(g.gradient(y, x)) == 6.0


def test_documented_edge_cases():
    x = tf.Variable(2.0)
    frozen = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as tape:
        y = x * frozen
    assert tape.gradient(y, [x, frozen])[1] is None  # non-trainable variables are not watched
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(frozen)
        y = x * frozen * frozen
    gx, gf = tape.gradient(y, [x, frozen])
    assert gx is None and float(gf) == 4.0
    n = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(n)  # integer tensors have no gradient
        m = n * n
    assert tape.gradient(m, n) is None
    with tf.GradientTape() as tape:
        y = x * x
        with tape.stop_recording():
            z = x * x
        total = y + z  # z was made while the tape was stopped: a constant to it
    assert float(tape.gradient(total, x)) == 4.0
    with tf.GradientTape() as tape:
        y = [x * 2.0, x * 3.0]  # a list of targets: the gradient of their sum
    assert float(tape.gradient(y, x, output_gradients=[1.0, 10.0])) == 32.0


def test_gradient_under_an_unrelated_outer_tape_still_works():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as outer:
        u = a * 3.0
        with tf.GradientTape(watch_accessed_variables=False) as inner:
            inner.watch(b)
            with outer.stop_recording():
                v = b * b
        assert float(inner.gradient(v, b)) == 4.0
    assert float(outer.gradient(u, a)) == 3.0
