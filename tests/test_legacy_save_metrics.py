"""tf-keras's legacy saves resolve 'accuracy' from the model's outputs (sim/keras/saving/
legacy_metrics.py). Measured on TensorFlow 2.21 (tests/tf_crosscheck/test_engines.py runs the same
cases on both engines): a SavedModel directory or .h5 saved before any fit makes 'accuracy'
categorical accuracy, in the model and in the one loaded back; a fit first, a .keras file, a
named metric or Keras 3 leave it sparse."""
import json

import h5py
import numpy as np
import pytest

import sim.tf as tf

X = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
Y = (np.arange(32) % 3).astype("int64")


def _model(metrics=("accuracy",), units=3):
    model = tf.keras.Sequential([tf.keras.layers.InputLayer(input_shape=(4,)),
                                 tf.keras.layers.Dense(units)])
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer="sgd", metrics=list(metrics))
    return model


def _fn(model, name="accuracy"):
    metric = [m for m in model.compiled_metrics.metrics if m.name == name][0]
    return metric._fn.resolved_name


@pytest.fixture
def tf_keras(monkeypatch):
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")


@pytest.mark.parametrize("suffix", ["", ".h5"])
def test_a_save_before_fit_makes_accuracy_categorical_in_both_models(tmp_path, tf_keras, suffix):
    model = _model()
    model.save(str(tmp_path / ("m" + suffix)))
    loaded = tf.keras.models.load_model(str(tmp_path / ("m" + suffix)))
    model.fit(X, Y, verbose=0)
    loaded.fit(X, Y, verbose=0)
    assert _fn(model) == _fn(loaded) == "categorical_accuracy"


def test_the_h5_training_config_records_the_built_metric_as_tf_keras_writes_it(tmp_path, tf_keras):
    _model(("acc", "mse")).save(str(tmp_path / "m.h5"))
    _model(("accuracy",), units=1).save(str(tmp_path / "b.h5"))
    with h5py.File(tmp_path / "m.h5") as f:
        metrics = json.loads(f.attrs["training_config"])["metrics"]
    assert {"class_name": "MeanMetricWrapper",
            "config": {"name": "acc", "dtype": "float32", "fn": "categorical_accuracy"}} in metrics
    assert "mse" in metrics
    assert _fn(tf.keras.models.load_model(str(tmp_path / "b.h5"))) == "binary_accuracy"


def test_a_file_that_recorded_sparse_accuracy_loads_sparse(tmp_path, tf_keras):
    model = _model()
    model.fit(X, Y, verbose=0)                  # resolved by the data: sparse
    model.save(str(tmp_path / "m.h5"))
    model.save(str(tmp_path / "d"))
    for path in ("m.h5", "d"):
        assert _fn(tf.keras.models.load_model(str(tmp_path / path))) == \
            "sparse_categorical_accuracy"


def test_keras_files_named_metrics_and_keras_3_keep_sparse_accuracy(tmp_path, tf_keras, monkeypatch):
    model = _model()
    model.save(str(tmp_path / "m.keras"))
    model.fit(X, Y, verbose=0)
    assert _fn(model) == "sparse_categorical_accuracy"
    named = _model(("sparse_categorical_accuracy",))
    named.save(str(tmp_path / "n"))
    assert named.fit(X, Y, verbose=0).history["sparse_categorical_accuracy"]
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "0")
    keras3 = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
    keras3.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                   optimizer="sgd", metrics=["accuracy"])
    keras3.save(str(tmp_path / "k3.h5"))
    keras3.fit(X, Y, verbose=0)
    assert _fn(keras3) == "sparse_categorical_accuracy"
