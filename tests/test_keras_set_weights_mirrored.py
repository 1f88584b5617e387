"""``model.set_weights`` on a model built in a MirroredStrategy scope: plain NumPy arrays are
assigned to MirroredVariables in cross-replica context (outside ``strategy.run``), which
writes every mirror, so all replicas start the next step from the same weights."""
import numpy as np
import pytest

import sim.tf as tf


def _model(strategy):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,)),
                                     tf.keras.layers.Dense(1)])
    return model


def _new_weights(model):
    rng = np.random.default_rng(7)
    return [rng.normal(size=w.shape).astype(w.dtype) for w in model.get_weights()]


def _assert_every_mirror(strategy, model, weights):
    for v, w in zip(model.weights, weights):
        parts = strategy.experimental_local_results(v)
        assert len(parts) == strategy.num_replicas_in_sync
        for p in parts:
            np.testing.assert_array_equal(p.numpy(), w)


@pytest.mark.parametrize("in_scope", [False, True], ids=["outside-scope", "inside-scope"])
def test_set_weights_writes_every_mirror(in_scope):
    strategy = tf.distribute.MirroredStrategy()
    model = _model(strategy)
    weights = _new_weights(model)
    assert not np.array_equal(model.get_weights()[0], weights[0])
    if in_scope:
        with strategy.scope():
            model.set_weights(weights)
    else:
        model.set_weights(weights)
    _assert_every_mirror(strategy, model, weights)
    for got, w in zip(model.get_weights(), weights):
        np.testing.assert_array_equal(got, w)


def test_mirrors_do_not_share_the_callers_arrays():
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    model = _model(strategy)
    weights = _new_weights(model)
    model.set_weights(weights)
    expected = [w.copy() for w in weights]
    for w in weights:
        w[...] = 0                                     # the caller reuses its buffers
    _assert_every_mirror(strategy, model, expected)


def test_every_replica_computes_with_the_new_weights():
    strategy = tf.distribute.MirroredStrategy()
    model = _model(strategy)
    weights = _new_weights(model)
    model.set_weights(weights)
    x = np.ones((1, 2), np.float32)
    outs = strategy.experimental_local_results(strategy.run(lambda: model(x)))
    expected = (x @ weights[0] + weights[1]) @ weights[2] + weights[3]
    assert len(outs) == 4
    for out in outs:
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


def test_wrong_shape_raises_tf_text():
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    model = _model(strategy)
    weights = _new_weights(model)
    weights[0] = np.zeros((3, 3), np.float32)
    with pytest.raises(ValueError, match=r"weight shape \(2, 3\) is not compatible with provided "
                                         r"weight shape \(3, 3\)"):
        model.set_weights(weights)
