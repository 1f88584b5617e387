"""Keras under MirroredStrategy with 1, 2, 4 replicas (and CentralStorage) equals
OneDeviceStrategy on the same global batches, in float64 (§4.4, §4.5): Model.fit and a custom
loop with Keras layers, SGD and Adam. Sums in another order only: within 1e-12."""
import numpy as np
import pytest

import sim.tf as tf

GLOBAL_BATCH = 16
STRATEGIES = {
    "mirrored-1": lambda: tf.distribute.MirroredStrategy(["/gpu:0"]),
    "mirrored-2": lambda: tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"]),
    "mirrored-4": lambda: tf.distribute.MirroredStrategy(),
    "central-storage": lambda: tf.distribute.experimental.CentralStorageStrategy(),
}
OPTIMIZERS = {
    "sgd": lambda: tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9),
    "adam": lambda: tf.keras.optimizers.Adam(learning_rate=0.01),
}


@pytest.fixture
def float64():
    old = tf.keras.backend.floatx()
    tf.keras.backend.set_floatx("float64")
    yield
    tf.keras.backend.set_floatx(old)


def _data():
    rng = np.random.default_rng(11)
    x = rng.normal(size=(64, 4))
    y = np.tanh(x @ rng.normal(size=(4, 1))) + 0.1 * rng.normal(size=(64, 1))
    return x, y


def _model(strategy, optimizer, dtype=None):
    """The same float64 model everywhere: weights set from one seeded NumPy generator."""
    rng = np.random.default_rng(5)
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(8, activation="tanh", input_shape=(4,), dtype=dtype),
            tf.keras.layers.Dense(1, dtype=dtype)])
        model.set_weights([rng.normal(size=w.shape) * 0.5 for w in model.get_weights()])
        opt = OPTIMIZERS[optimizer]()
    assert all(w.dtype == np.float64 for w in model.get_weights())
    return model, opt


def _fit(strategy, optimizer, dtype=None):
    x, y = _data()
    model, opt = _model(strategy, optimizer, dtype)
    with strategy.scope():
        model.compile(optimizer=opt, loss="mse")
    history = model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=2, shuffle=False, verbose=0)
    return model.get_weights(), history.history["loss"]


def _custom_loop(strategy, optimizer):
    x, y = _data()
    model, opt = _model(strategy, optimizer)
    with strategy.scope():
        loss_object = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)

    def step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            per_example = loss_object(labels, model(features, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat(2).batch(GLOBAL_BATCH)
    losses = [float(strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None))
              for batch in strategy.experimental_distribute_dataset(ds)]
    return model.get_weights(), losses


def _same(got, ref):
    for g, r in zip(got[0], ref[0]):
        np.testing.assert_allclose(g, r, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1], ref[1], rtol=0, atol=1e-12)


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_fit_equals_one_device(float64, name, optimizer):
    ref = _fit(tf.distribute.OneDeviceStrategy("/gpu:0"), optimizer)
    got = _fit(STRATEGIES[name](), optimizer)
    _same(got, ref)
    start, _ = _model(tf.distribute.OneDeviceStrategy("/gpu:0"), optimizer)
    assert not np.allclose(got[0][0], start.get_weights()[0])     # it did train


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_custom_loop_equals_one_device(float64, name, optimizer):
    ref = _custom_loop(tf.distribute.OneDeviceStrategy("/gpu:0"), optimizer)
    _same(_custom_loop(STRATEGIES[name](), optimizer), ref)


def test_fit_float64_layers_without_floatx():
    """``dtype="float64"`` on the layers alone (floatx stays float32) gives the same weights;
    the loss metric is kept in floatx (float32), so the logged losses agree to float32 only."""
    assert tf.keras.backend.floatx() == "float32"
    ref = _fit(tf.distribute.OneDeviceStrategy("/gpu:0"), "adam", dtype="float64")
    got = _fit(tf.distribute.MirroredStrategy(), "adam", dtype="float64")
    _same((got[0], []), (ref[0], []))
    np.testing.assert_allclose(got[1], ref[1], rtol=1e-6, atol=0)
