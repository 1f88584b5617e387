"""The guide's Keras snippets (seeds 000/004) run unchanged with ``import sim.tf as tf``."""
from __future__ import annotations

import re
import numpy as np
import pytest

import sim.tf as tf
from sim.keras import backend


@pytest.fixture(autouse=True)
def _fresh():
    backend.clear_session()
    tf.keras.utils.set_random_seed(0)


def _guide_model(strategy):
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(1, input_shape=(1,),
                                  kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
        model.compile(loss="mse", optimizer="sgd")
    return model


def test_fit_mirrored_equals_single_device(monkeypatch):
    """Synchronous data parallelism: the same losses on 4 replicas as on one device (§4.4), under
    tf-keras (the guide's Keras: Keras 3 refuses its uneven first batch, test below)."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
    backend.clear_session()
    tf.keras.utils.set_random_seed(0)
    one = _guide_model(tf.distribute.get_strategy()).fit(dataset, epochs=2, verbose=0).history["loss"]
    backend.clear_session()
    tf.keras.utils.set_random_seed(0)
    mirrored = tf.distribute.MirroredStrategy()
    model = _guide_model(mirrored)
    four = model.fit(dataset, epochs=2, verbose=0).history["loss"]
    np.testing.assert_allclose(four, one, rtol=1e-5)
    assert np.isfinite(model.evaluate(dataset, verbose=0))
    inputs, targets = np.ones((100, 1)), np.ones((100, 1))
    model.fit(inputs, targets, epochs=2, batch_size=10, verbose=0)
    assert model.predict(inputs[:6], verbose=0).shape == (6, 1)


def test_keras3_refuses_an_uneven_first_batch_as_tensorflow_does():
    """Keras 3's fit and evaluate reduce the first distributed batch to the host (its
    _maybe_symbolic_build): batch 10 on 4 replicas, split [3, 3, 3, 1], raises AddN's
    InvalidArgumentError on TF 2.21 (tests/tf_crosscheck scenario keras3_uneven_first_batch);
    predict does not reduce, and an even first batch trains, however uneven the later ones."""
    from sim.engine.errors import InvalidArgumentError
    backend.clear_session()
    model = _guide_model(tf.distribute.MirroredStrategy())
    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
    text = "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: [3,1] != input 3: [1,1]"
    for call in (lambda: model.fit(dataset, epochs=1, verbose=0),
                 lambda: model.fit(np.ones((100, 1)), np.ones((100, 1)), batch_size=10, verbose=0),
                 lambda: model.evaluate(dataset, verbose=0)):
        with pytest.raises(InvalidArgumentError, match=re.escape(text)):
            call()
    assert model.predict(np.ones((10, 1)), batch_size=10, verbose=0).shape == (10, 1)
    later_uneven = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(22).batch(12)   # 12, then 10
    assert len(model.fit(later_uneven, epochs=1, verbose=0).history["loss"]) == 1
    outside = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])     # no strategy
    outside.compile(loss="mse", optimizer="sgd")
    assert len(outside.fit(dataset, epochs=1, verbose=0).history["loss"]) == 1


def test_one_device_and_default_strategy_snippets():
    strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")
    model = _guide_model(strategy)
    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(20).batch(10)
    assert len(model.fit(dataset, epochs=2, verbose=0).history["loss"]) == 2
    default_strategy = tf.distribute.get_strategy()
    assert float(default_strategy.reduce("SUM", 1., axis=None)) == 1.0


def test_model_outside_scope_compiled_inside_raises(monkeypatch):
    """tf-keras refuses it at compile; Keras 3 at the first training step
    (both versions: tests/test_keras_weight_names.py)."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        with pytest.raises(ValueError, match="was not created in the distribution strategy scope"):
            model.compile(loss="mse", optimizer="sgd")


def test_accuracy_metric_under_mirrored():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x[:, 0] > 0).astype("int64")
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="softmax", input_shape=(4,))])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
    hist = model.fit(x, y, epochs=10, batch_size=16, verbose=0)
    assert 0.0 <= hist.history["accuracy"][-1] <= 1.0
    assert hist.history["accuracy"][-1] > 0.8
