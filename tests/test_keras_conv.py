"""tf.keras.layers.Conv2D / MaxPooling2D / Flatten: Keras' arguments, shapes, weights and errors,
the seed chapter's model (seed 002) built with input_shape=, and conv FLOPs in the step time."""
from __future__ import annotations

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n
from sim.distribute import _machine, timing
from sim.engine import counting
from sim.keras import backend

R = np.random.default_rng(3)


@pytest.fixture(autouse=True)
def _fresh():
    backend.clear_session()
    tf.keras.utils.set_random_seed(0)


def seed_model():
    """The model of seed 002 (the chapter's MultiWorkerMirroredStrategy script), as written."""
    layers = tf.keras.layers
    return tf.keras.Sequential([
        layers.Conv2D(32, kernel_size=(3, 3), activation='relu', input_shape=(28, 28, 1)),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dense(10, activation='softmax')
    ])


def test_seed_model_builds_from_input_shape_with_tensorflows_weights(monkeypatch):
    model = seed_model()
    assert model.built
    assert [w.name for w in model.weights] == ["kernel", "bias", "kernel", "bias"]   # Keras 3
    assert [w.path for w in model.weights] == ["sequential/conv2d/kernel", "sequential/conv2d/bias",
                                               "sequential/dense/kernel", "sequential/dense/bias"]
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    backend.clear_session()
    assert [w.name for w in seed_model().weights] == ["conv2d/kernel:0", "conv2d/bias:0",
                                                      "dense/kernel:0", "dense/bias:0"]
    assert [tuple(w.shape) for w in model.weights] == [(3, 3, 1, 32), (32,), (5408, 10), (10,)]
    assert model.count_params() == 54410            # TensorFlow's summary: 320 + 54090
    assert [l.name for l in model.layers] == ["conv2d", "max_pooling2d", "flatten", "dense"]
    out = model(np.zeros((2, 28, 28, 1), np.float32))
    assert tuple(out.shape) == (2, 10)
    np.testing.assert_allclose(out.numpy().sum(axis=1), 1.0, rtol=1e-6)


def test_conv2d_layer_is_activation_of_conv_plus_bias():
    layer = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu",
                                   bias_initializer="ones")
    x = R.normal(size=(2, 7, 7, 3)).astype(np.float32)
    y = layer(x).numpy()
    want = np.maximum(tf.nn.conv2d(x, layer.kernel, 2, "SAME").numpy() + 1.0, 0)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    assert y.shape == (2, 4, 4, 4) == (2,) + layer.compute_output_shape((None, 7, 7, 3))[1:]


@pytest.mark.parametrize("padding,strides", [("valid", 1), ("same", 1), ("valid", 2),
                                             ("same", 3), ("SAME", (2, 1))])
def test_compute_output_shape_matches_the_output(padding, strides):
    conv = tf.keras.layers.Conv2D(2, (3, 2), strides=strides, padding=padding)
    pool = tf.keras.layers.MaxPooling2D((2, 3), strides=strides, padding=padding)
    x = np.zeros((1, 9, 8, 2), np.float32)
    for layer in (conv, pool):
        assert tuple(layer(x).shape) == (1,) + layer.compute_output_shape((None, 9, 8, 2))[1:]


def test_no_bias_and_initializers():
    layer = tf.keras.layers.Conv2D(3, 2, use_bias=False, kernel_initializer="ones")
    y = layer(np.ones((1, 3, 3, 2), np.float32)).numpy()
    assert len(layer.weights) == 1
    np.testing.assert_array_equal(y, np.full((1, 2, 2, 3), 8.0))   # 2*2 taps x 2 channels


def test_he_normal_kernel_uses_the_receptive_field_as_fan_in():
    layer = tf.keras.layers.Conv2D(64, 5, kernel_initializer="he_normal")
    layer(np.zeros((1, 8, 8, 16), np.float32))
    std = layer.kernel.numpy().std()
    assert std == pytest.approx(np.sqrt(2 / (5 * 5 * 16)), rel=0.05)   # fan_in = 5*5*16, not 16


def test_channels_first_is_channels_last_transposed():
    x = R.normal(size=(2, 6, 5, 3)).astype(np.float32)
    last = tf.keras.layers.Conv2D(4, 3, padding="same")
    first = tf.keras.layers.Conv2D(4, 3, padding="same", data_format="channels_first")
    y_last = last(x).numpy()
    first(np.moveaxis(x, -1, 1))
    first.set_weights(last.get_weights())
    y_first = first(np.moveaxis(x, -1, 1)).numpy()
    np.testing.assert_allclose(np.moveaxis(y_first, 1, -1), y_last, rtol=1e-5, atol=1e-6)
    pool = tf.keras.layers.MaxPooling2D(data_format="channels_first")
    np.testing.assert_array_equal(np.moveaxis(pool(np.moveaxis(x, -1, 1)).numpy(), 1, -1),
                                  tf.keras.layers.MaxPooling2D()(x).numpy())


def test_max_pooling_strides_default_to_pool_size():
    pool = tf.keras.layers.MaxPooling2D(pool_size=(2, 2))
    assert pool.strides == (2, 2)
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    np.testing.assert_array_equal(pool(x).numpy()[0, :, :, 0], [[5, 7], [13, 15]])
    assert tf.keras.layers.MaxPool2D is tf.keras.layers.MaxPooling2D


def test_config_round_trip():
    layer = tf.keras.layers.Conv2D(8, (3, 1), strides=(2, 1), padding="same", activation="relu")
    config = layer.get_config()
    assert (config["filters"], config["kernel_size"], config["strides"], config["padding"],
            config["activation"], config["data_format"]) == (8, (3, 1), (2, 1), "same", "relu",
                                                            "channels_last")
    again = tf.keras.layers.Conv2D.from_config({**config, "name": "copy"})
    assert again.kernel_size == (3, 1)


def test_argument_errors_use_keras_messages():
    with pytest.raises(ValueError, match="Invalid value for argument `filters`. Expected a "
                                         "strictly positive value. Received filters=0"):
        tf.keras.layers.Conv2D(0, 3)
    with pytest.raises(ValueError, match="The `kernel_size` argument must be a tuple of 2 integers"):
        tf.keras.layers.Conv2D(2, (3, 3, 3))
    with pytest.raises(ValueError, match="The `strides` argument must be a tuple of 2 integers"):
        tf.keras.layers.Conv2D(2, 3, strides=0)
    with pytest.raises(ValueError, match='The `padding` argument must be a list/tuple or one of '
                                         '"valid", "same"'):
        tf.keras.layers.MaxPooling2D(padding="full")
    with pytest.raises(ValueError, match="The `data_format` argument must be one of"):
        tf.keras.layers.Conv2D(2, 3, data_format="NHWC")
    with pytest.raises(NotImplementedError, match="dilation_rate"):
        tf.keras.layers.Conv2D(2, 3, dilation_rate=2)


@pytest.mark.parametrize("lang,word", [("en", "np.expand_dims(x, -1)"), ("zh", "通道轴"),
                                       ("pt", "eixo de canais")])
def test_images_without_a_channel_axis_are_explained(lang, word):
    """The learner's classic miss: MNIST's (N, 28, 28) fed to a Conv2D."""
    old = i18n.get_language()
    i18n.set_language(lang)
    try:
        with pytest.raises(ValueError, match='Input 0 of layer "conv2d" is incompatible with the '
                                             'layer: expected min_ndim=4, found ndim=3') as e:
            tf.keras.Sequential([tf.keras.layers.Conv2D(2, 3, input_shape=(28, 28))])
        assert word in str(e.value)
        model = seed_model()
        with pytest.raises(ValueError, match="found ndim=3. Full shape received: "
                                             r"\(2, 28, 28\)") as e:
            model(np.zeros((2, 28, 28), np.float32))
        assert word in str(e.value)
    finally:
        i18n.set_language(old)


def test_wrong_channel_count_is_reported_before_the_op_runs():
    layer = tf.keras.layers.Conv2D(2, 3)
    layer(np.zeros((1, 5, 5, 3), np.float32))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(np.zeros((1, 5, 5, 1), np.float32))


def test_conv_flops_reach_the_simulated_step_time():
    """The step time is the roofline of the counted work (conv FLOPs included) plus launches."""
    _machine.use_machine("workstation-4gpu")
    strategy = tf.distribute.get_strategy()
    model = seed_model()
    x = tf.constant(R.random((64, 28, 28, 1)).astype(np.float32))

    def step():
        return model(x)
    with counting() as c:
        step()
    conv = 2 * 3 * 3 * 1 * 32 * 26 * 26 * 64
    bias_relu = 2 * 64 * 26 * 26 * 32
    pool = 2 * 2 * 13 * 13 * 32 * 64
    dense = 2 * 5408 * 10 * 64 + 64 * 10 + 5 * 64 * 10     # matmul, bias, softmax
    assert c.flops == conv + bias_relu + pool + dense
    strategy.run(step)
    dev = _machine.device(_machine.local_devices("GPU")[0])
    want = max(c.flops / dev.peak_flops["float32"], c.bytes / dev.memory_bandwidth) \
        + c.ops * timing.GPU_OP_OVERHEAD
    assert strategy.extended.last_step_time == pytest.approx(want, rel=1e-12)


def test_gradients_through_the_layers_match_finite_differences():
    """Conv2D -> MaxPooling2D -> Flatten -> Dense in float64: every weight's tape gradient."""
    from engine_gradcheck import numeric_grad
    backend.set_floatx("float64")
    try:
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(3, 3, activation="tanh", padding="same", input_shape=(6, 6, 2)),
            tf.keras.layers.MaxPooling2D(2),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(4, activation="softmax")])
        x = R.normal(size=(3, 6, 6, 2))
        y = tf.keras.utils.to_categorical([0, 3, 1], 4)
        loss_fn = tf.keras.losses.CategoricalCrossentropy()
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        values = [v.numpy().copy() for v in model.trainable_variables]

        def f(arrays):
            model.set_weights(arrays)
            return float(loss_fn(y, model(x)))
        for i, g in enumerate(grads):
            np.testing.assert_allclose(g.numpy(), numeric_grad(f, values, i), rtol=1e-5,
                                       atol=1e-8, err_msg=model.trainable_variables[i].name)
    finally:
        backend.set_floatx("float32")
