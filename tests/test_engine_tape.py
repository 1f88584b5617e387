"""GradientTape and Variable semantics, and a small model against closed forms."""
import numpy as np
import pytest

import sim.tf as tf


def test_variables_are_watched_and_sources_can_be_nested():
    w, b = tf.Variable(3.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = w * w + 2 * b
    g = tape.gradient(y, {"w": w, "b": [b]})
    assert g["w"].numpy() == 6.0 and g["b"][0].numpy() == 2.0


def test_unconnected_none_or_zero_and_non_persistent():
    w, u = tf.Variable(2.0), tf.Variable(5.0)
    with tf.GradientTape() as tape:
        y = w * 3
    assert tape.gradient(y, [w, u])[1] is None
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, w)
    with tf.GradientTape() as tape:
        y = w * 3
    z = tape.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert z.numpy() == 0.0


def test_watch_accessed_variables_false_and_stop_recording():
    w = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = w * w
    assert tape.gradient(y, w) is None
    with tf.GradientTape(persistent=True) as tape:
        a = w * w
        with tape.stop_recording():
            b = w * w
    assert tape.gradient(a, w).numpy() == 4.0 and tape.gradient(b, w) is None


def test_constants_need_watch_and_nontrainable_not_watched():
    x = tf.constant(3.0)
    v = tf.Variable(1.0, trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x * v
    assert tape.gradient(y, x) is None and tape.gradient(y, v) is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x).numpy() == 6.0


def test_nested_tapes_both_record():
    x = tf.Variable(2.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x ** 3
        dy = inner.gradient(y, x)
        z = x * 5
    assert dy.numpy() == 12.0 and outer.gradient(z, x).numpy() == 5.0


def test_variable_api():
    v = tf.Variable([1.0, 2.0], name="kernel")
    assert v.name == "kernel:0" and v.shape == [2] and v.dtype == tf.float32 and v.trainable
    v.assign_add([1.0, 1.0])
    v.assign_sub([0.5, 0.5])
    np.testing.assert_allclose(v.numpy(), [1.5, 2.5])
    with tf.name_scope("dense"):
        assert tf.Variable(0.0, name="bias").name == "dense/bias:0"
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])
    assert tf.Variable(1, dtype=tf.float64).dtype == tf.float64
    s = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM)
    assert not s.trainable and s.aggregation == tf.VariableAggregation.SUM


def test_variable_creator_scope_chain():
    seen = []

    def outer(next_creator, **kw):
        seen.append("outer")
        return next_creator(**kw)

    def inner(next_creator, **kw):
        seen.append("inner")
        kw["trainable"] = False
        return next_creator(**kw)
    with tf.variable_creator_scope(outer), tf.variable_creator_scope(inner):
        v = tf.Variable(1.0)
    assert seen == ["inner", "outer"] and not v.trainable


class FakeDistributed:
    """Anything with _engine_variable() stands for its current replica's variable."""

    def __init__(self, v):
        self.v = v

    def _engine_variable(self):
        return self.v


def test_distributed_variable_protocol():
    v = tf.Variable(3.0)
    d = FakeDistributed(v)
    with tf.GradientTape() as tape:
        y = tf.multiply(d, d) + tf.multiply(d, 1.0)
    assert y.numpy() == 12.0 and tape.gradient(y, d).numpy() == 7.0
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(d)
        y = tf.square(d)
    assert tape.gradient(y, [d])[0].numpy() == 6.0


def test_linear_regression_loss_and_gradients_closed_form():
    rng = np.random.default_rng(0)
    X, t = rng.normal(size=(8, 3)), rng.normal(size=(8, 1))
    W0, b0 = rng.normal(size=(3, 1)), np.array([0.5])
    W, b = tf.Variable(W0), tf.Variable(b0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), W) + b - t))
    gW, gb = tape.gradient(loss, [W, b])
    r = X @ W0 + b0 - t
    np.testing.assert_allclose(loss.numpy(), np.mean(r ** 2))
    np.testing.assert_allclose(gW.numpy(), 2 * X.T @ r / 8)
    np.testing.assert_allclose(gb.numpy(), [2 * r.mean()])


def test_softmax_classifier_gradient_closed_form():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(5, 4)), np.array([0, 2, 1, 2, 0])
    W = tf.Variable(rng.normal(size=(4, 3)))
    with tf.GradientTape() as tape:
        logits = tf.matmul(tf.constant(X), W)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    z = X @ W.numpy()
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(loss.numpy(), -np.mean(np.log(p[np.arange(5), y])))
    p[np.arange(5), y] -= 1
    np.testing.assert_allclose(tape.gradient(loss, W).numpy(), X.T @ p / 5)


def test_function_forms():
    @tf.function
    def f(x):
        return x * 2

    @tf.function(jit_compile=True, reduce_retracing=True)
    def g(x):
        return x + 1
    h = tf.function(lambda x: x - 1)
    assert f(tf.constant(1.0)).numpy() == 2 and g(1.0).numpy() == 2 and h(tf.constant(1.0)).numpy() == 0
    assert f.python_function(3) == 6
