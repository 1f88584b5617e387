"""``model.metrics`` as the selected Keras lists it (sim/keras/compile_metrics.py), under both
selections; values are those TensorFlow 2.21 printed (cross-check keras_version_model_metrics)."""
import numpy as np
import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)




def _listed(model):
    return [(type(m).__name__, m.name) for m in model.metrics]


def test_model_metrics(keras):
    x = np.arange(8, dtype=np.float32).reshape(8, 1) / 8
    y = 2 * x + 1
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    assert model.metrics == []
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1),
                  metrics=["mae", tf.keras.metrics.RootMeanSquaredError()])
    compiled = _listed(model)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    results = {"loss": 1.72720468044281, "mae": 1.3020997047424316,
               "root_mean_squared_error": 1.3142316341400146}
    if keras == "keras3":
        assert compiled == _listed(model) == [("Mean", "loss"), ("CompileMetrics", "compile_metrics")]
        loss, compile_metrics = model.metrics
        assert model.metrics[1] is compile_metrics                  # the same object each time
        got = {"loss": float(loss.result()),
               **{k: float(v) for k, v in compile_metrics.result().items()}}
        assert [m.name for m in compile_metrics.metrics] == ["mae", "root_mean_squared_error"]
        assert [v.name for v in compile_metrics.variables] == ["total", "count"] * 2
    else:
        assert compiled == []                                        # built by the first step
        assert _listed(model) == [("Mean", "loss"), ("MeanMetricWrapper", "mae"),
                                  ("RootMeanSquaredError", "root_mean_squared_error")]
        got = {m.name: float(m.result()) for m in model.metrics}
    assert got == pytest.approx(results, rel=1e-6)
    model.reset_metrics()
    assert all(float(v) == 0.0 for v in tf.nest.flatten([m.result() for m in model.metrics]))
    assert model.evaluate(x, y, verbose=0, return_dict=True) == pytest.approx(
        {"loss": 0.7003835439682007, "mae": 0.8086192011833191,
         "root_mean_squared_error": 0.8368892073631287}, rel=1e-6)
