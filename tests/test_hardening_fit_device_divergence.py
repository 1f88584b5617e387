"""Issue 24, item 10: fit's batch_size checked as Keras checks it, tf.device on a device the
machine lacks placed as TensorFlow's soft placement does (InvalidArgumentError with it off),
and a diverging run says "diverged at step N: learning rate X is above ..." (DESIGN.md), in
Model.fit and in a parameter-server run, in the course language, without NumPy's warnings."""
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n

sys.path.insert(0, str(Path(__file__).parent))
from ps_cluster import Resolver  # noqa: E402

GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(256, 4).astype("float32")
    return x, (x @ np.ones((4, 1))).astype("float32")


def _model(lr=0.01):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
    model.compile(tf.keras.optimizers.SGD(lr), "mse")
    return model


# ------------------------------------------------------------------ batch_size

@pytest.mark.parametrize("value", [0, -1])
def test_a_batch_size_below_one_is_keras_value_error(value):
    x, y = _data()
    with pytest.raises(ValueError, match=f"Expected batch_size to be positive. Received is {value}."):
        _model().fit(x, y, batch_size=value, epochs=1, verbose=0)
    with pytest.raises(ValueError, match="Expected batch_size to be positive"):
        _model().evaluate(x, y, batch_size=value, verbose=0)


@pytest.mark.parametrize("value", [2.5, "4", float("nan")])
def test_a_batch_size_that_is_not_an_int_is_a_type_error(value):
    x, y = _data()
    with pytest.raises(TypeError, match="batch_size"):
        _model().fit(x, y, batch_size=value, epochs=1, verbose=0)


def test_an_int_batch_size_still_trains_with_it():
    x, y = _data()
    assert _model().fit(x, y, batch_size=np.int64(64), epochs=1, verbose=0).params["steps"] == 4


# ------------------------------------------------------------------ tf.device

@pytest.mark.parametrize("name", ["/gpu:99", "/cpu:7", "/tpu:3"])
def test_a_missing_device_is_soft_placed_as_tensorflow_does(name):
    with tf.device(name):
        v = tf.Variable(1.0)
        x = tf.constant(2.0) * 3
    assert v.device == GPU0 and x.device == GPU0      # the best device left: GPU:0


def test_an_existing_device_is_kept():
    with tf.device("/gpu:3"):
        assert tf.Variable(1.0).device.endswith("GPU:3")
    with tf.device("/cpu:0"):
        assert tf.Variable(1.0).device.endswith("CPU:0")


def test_without_soft_placement_a_missing_device_is_invalid_argument():
    tf.config.set_soft_device_placement(False)
    try:
        assert tf.config.get_soft_device_placement() is False
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Could not satisfy device specification '.*GPU:99'"):
            with tf.device("/gpu:99"):
                pass
    finally:
        tf.config.set_soft_device_placement(True)


# ------------------------------------------------------------------ divergence

@pytest.mark.parametrize("lang, words", [("en", "diverged at step 2: learning rate 1e+06 is above"),
                                         ("zh", "在第 2 步发散：学习率 1e+06"),
                                         ("pt", "divergiu no passo 2: a taxa de aprendizado 1e+06")])
def test_a_diverging_fit_says_so_once_in_the_course_language(capsys, lang, words):
    x, y = _data()
    i18n.set_language(lang)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history = _model(1e6).fit(x, y, batch_size=32, epochs=2, verbose=0)
    finally:
        i18n.set_language("en")
    out = capsys.readouterr().out
    assert words in out and out.count("\n") == 1, out
    assert np.isnan(history.history["loss"][-1])         # training goes on, as in TensorFlow
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], caught


def test_a_converging_fit_says_nothing(capsys):
    x, y = _data()
    _model(0.01).fit(x, y, batch_size=32, epochs=2, verbose=0)
    assert capsys.readouterr().out == ""


def _ps_run(lr, steps=100):
    strategy = tf.distribute.experimental.ParameterServerStrategy(Resolver(workers=8, ps=2))
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    with strategy.scope():
        w = tf.Variable(np.ones((4, 1), np.float32))
        opt = tf.keras.optimizers.SGD(lr)
    x, y = _data()

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x[:64], w) - y[:64]) ** 2)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss
    for _ in range(steps):
        coordinator.schedule(step)
    coordinator.join()


def test_a_diverging_parameter_server_run_says_so(capsys):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ps_run(10.0)
    out = capsys.readouterr().out
    assert "diverged at step" in out and "learning rate 10 is above" in out and out.count("\n") == 1
    assert "asynchronous updates" in out
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], caught
    _ps_run(0.01)
    assert capsys.readouterr().out == ""


def test_a_diverging_fit_under_parameter_server_strategy_says_so(capsys):
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=4, ps=2))
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
        model.compile(tf.keras.optimizers.SGD(100.0), "mse")
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)
    model.fit(ds, epochs=2, steps_per_epoch=20, verbose=0)
    out = capsys.readouterr().out
    assert "diverged at step" in out and "learning rate 100 is above" in out and out.count("\n") == 1

