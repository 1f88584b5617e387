"""The Keras pieces seed 002's script uses besides the layers, pinned to TensorFlow's formulas:
keras.utils.to_categorical, categorical cross-entropy (string, function, class, from_logits),
'adam' by name, and Keras' resolution of metrics=['accuracy'] from the label and output shapes."""
from __future__ import annotations

import numpy as np
import pytest

import sim.tf as tf
from sim.keras import backend

keras = tf.keras


@pytest.fixture(autouse=True)
def _fresh():
    backend.clear_session()
    keras.utils.set_random_seed(0)


def test_to_categorical_as_tensorflow():
    np.testing.assert_array_equal(keras.utils.to_categorical([0, 1, 2, 3], num_classes=4),
                                  np.eye(4))
    labels = np.array([[1], [2]], np.uint8)             # (N, 1) labels lose their last axis
    one_hot = keras.utils.to_categorical(labels)
    assert one_hot.shape == (2, 3) and one_hot.dtype == np.float32
    np.testing.assert_array_equal(one_hot, [[0, 1, 0], [0, 0, 1]])
    assert keras.utils.to_categorical(np.zeros((2, 3), int), 5).shape == (2, 3, 5)
    assert keras.utils.to_categorical([1], 2, dtype="int32").dtype == np.int32


def test_categorical_crossentropy_formulas():
    y = np.array([[0, 1, 0], [1, 0, 0]], np.float32)
    probs = np.array([[0.2, 0.6, 0.2], [0.0, 0.5, 1.5]], np.float32)   # not normalised, a zero
    norm = probs / probs.sum(axis=1, keepdims=True)
    want = -np.sum(y * np.log(np.clip(norm, 1e-7, 1 - 1e-7)), axis=1)
    got = keras.losses.categorical_crossentropy(y, probs).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got[1] == pytest.approx(-np.log(1e-7), rel=1e-5)            # clipped at epsilon
    logits = np.array([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3]], np.float32)
    log_softmax = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    want = -np.sum(y * log_softmax, axis=1)
    loss = keras.losses.CategoricalCrossentropy(from_logits=True)
    np.testing.assert_allclose(loss(y, logits).numpy(), want.mean(), rtol=1e-6)
    assert loss.get_config()["from_logits"] is True and loss.name == "categorical_crossentropy"
    assert keras.losses.get("categorical_crossentropy") is keras.losses.categorical_crossentropy


def test_softmax_output_uses_its_logits_as_keras_2_does():
    """A saturated softmax: Keras 2 reads the logits behind it (loss 400, not -log(1e-7))."""
    model = keras.Sequential([
        keras.layers.Dense(2, input_shape=(1,),
                           kernel_initializer=keras.initializers.Constant([[300.0, -100.0]])),
        keras.layers.Activation("softmax")])
    model.compile(loss="categorical_crossentropy", optimizer="adam")
    x, y = np.ones((1, 1), np.float32), np.array([[0.0, 1.0]], np.float32)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(400.0, rel=1e-6)


def test_adam_by_name_has_kerass_defaults():
    opt = keras.optimizers.get("adam")
    assert type(opt).__name__ == "Adam"
    config = opt.get_config()
    assert (config["learning_rate"], config["beta_1"], config["beta_2"], config["epsilon"]) == \
        (0.001, 0.9, 0.999, 1e-07)


@pytest.mark.parametrize("metric", ["accuracy", "acc", "categorical_accuracy"])
def test_accuracy_with_one_hot_labels_is_categorical(metric):
    rng = np.random.default_rng(2)
    classes = rng.integers(0, 3, 32)
    y = keras.utils.to_categorical(classes, 3)
    weights = None

    class Grab(keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            nonlocal weights
            weights = [w.copy() for w in self.model.get_weights()]
    x = rng.normal(size=(32, 4)).astype(np.float32)
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(4,))])
    model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=[metric])
    history = model.fit(x, y, batch_size=32, epochs=1, verbose=0, callbacks=[Grab()]).history
    logits = x @ weights[0] + weights[1]                        # the weights the batch met
    want = np.mean(np.argmax(logits, axis=1) == classes)
    assert history[metric] == [pytest.approx(want)]


def test_accuracy_with_integer_labels_is_sparse_and_with_one_column_is_binary():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(16, 4)).astype(np.float32)
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(4,))])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy", "sparse_categorical_accuracy"])
    labels = rng.integers(0, 3, 16)
    _, acc, sparse = model.evaluate(x, labels, verbose=0)
    want = np.mean(np.argmax(model.predict(x, verbose=0), axis=1) == labels)
    assert acc == pytest.approx(want) == sparse
    binary = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(4,))])
    binary.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    targets = (rng.random((16, 1)) > 0.5).astype(np.float32)
    _, acc = binary.evaluate(x, targets, verbose=0)
    want = np.mean((binary.predict(x, verbose=0) > 0.5) == targets)
    assert acc == pytest.approx(want)
