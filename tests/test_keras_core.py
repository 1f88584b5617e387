"""sim.keras: training converges, seeds repeat, optimizer formulas, losses, checkpoints, T24/T29."""
from __future__ import annotations

import os

import numpy as np
import pytest

import sim.tf as tf
from sim.keras import backend


@pytest.fixture(autouse=True)
def _fresh():
    backend.clear_session()
    tf.keras.utils.set_random_seed(0)


def _blobs(n=200, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2)).astype("float32")
    y = (x[:, 0] + x[:, 1] > 0).astype("float32")[:, None]
    return x, y


def test_logistic_regression_fit_converges():
    x, y = _blobs()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                  metrics=["accuracy"])
    hist = model.fit(x, y, epochs=15, batch_size=20, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    assert hist.history["accuracy"][-1] > 0.95


def test_mlp_custom_loop_converges():
    x, y = _blobs()
    labels = y[:, 0].astype("int64")
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu", input_shape=(2,)),
                                 tf.keras.layers.Dense(2)])
    opt = tf.keras.optimizers.Adam(0.05)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    first = None
    for _ in range(60):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        first = first if first is not None else float(loss)
    assert float(loss) < 0.3 * first
    assert int(opt.iterations.numpy()) == 60


def test_same_seed_same_weights():
    def make():
        backend.clear_session()
        tf.keras.utils.set_random_seed(7)
        return tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))]).get_weights()

    a, b = make(), make()
    assert all(np.array_equal(u, v) for u, v in zip(a, b))


def _run_opt(opt, w0, grads):
    v = tf.Variable(np.array(w0, dtype=np.float64), dtype=tf.float64)
    out = []
    for g in grads:
        opt.apply_gradients([(tf.constant(np.array(g, dtype=np.float64)), v)])
        out.append(v.numpy().copy())
    return out


GRADS = [[0.5, -1.0], [0.25, 2.0], [-0.75, 0.1], [1.0, 1.0]]
# TensorFlow keeps the rate in a float32 variable and casts it to the weights' dtype, so SGD(0.1)
# on float64 weights steps by float64(float32(0.1)) (TF 2.21 gives 0.9499999992549419 for
# 1 - 0.1 * 0.5, under Keras 3 and tf-keras alike).
LR_TENTH, LR_HUNDREDTH = float(np.float32(0.1)), float(np.float32(0.01))


def test_sgd_momentum_nesterov_formulas():
    for nesterov in (False, True):
        got = _run_opt(tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=nesterov), [1.0, 2.0], GRADS)
        w, m = np.array([1.0, 2.0]), np.zeros(2)
        for g, gw in zip(GRADS, got):
            g = np.array(g)
            m = 0.9 * m - LR_TENTH * g
            w = w + (0.9 * m - LR_TENTH * g if nesterov else m)
            np.testing.assert_allclose(gw, w, rtol=1e-12)


def test_adam_formula():
    got = _run_opt(tf.keras.optimizers.Adam(0.01), [1.0, 2.0], GRADS)
    w, m, v = np.array([1.0, 2.0]), np.zeros(2), np.zeros(2)
    for t, (g, gw) in enumerate(zip(GRADS, got), start=1):
        g = np.array(g)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        lr_t = LR_HUNDREDTH * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        w = w - lr_t * m / (np.sqrt(v) + 1e-7)
        np.testing.assert_allclose(gw, w, rtol=1e-12)


@pytest.mark.parametrize("momentum,centered", [(0.0, False), (0.5, False), (0.0, True)])
def test_rmsprop_formula(momentum, centered):
    got = _run_opt(tf.keras.optimizers.RMSprop(0.01, momentum=momentum, centered=centered), [1.0, 2.0], GRADS)
    w, ms, mg, mom = np.array([1.0, 2.0]), np.zeros(2), np.zeros(2), np.zeros(2)
    for g, gw in zip(GRADS, got):
        g = np.array(g)
        ms = 0.9 * ms + 0.1 * g * g
        denom = ms
        if centered:
            mg = 0.9 * mg + 0.1 * g
            denom = ms - mg * mg
        step = LR_HUNDREDTH * g / np.sqrt(denom + 1e-7)
        if momentum:
            mom = momentum * mom + step
            step = mom
        w = w - step
        np.testing.assert_allclose(gw, w, rtol=1e-12)


def test_legacy_names_and_schedule(monkeypatch):
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")   # Keras 3 has no legacy optimizers
    sched = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = tf.keras.optimizers.legacy.SGD(learning_rate=sched)
    got = _run_opt(opt, [0.0], [[1.0], [1.0], [1.0]])
    np.testing.assert_allclose([g[0] for g in got], [-0.1, -0.15, -0.175], rtol=1e-6)
    assert tf.keras.optimizers.legacy.RMSprop(learning_rate=0.1).get_config()["is_legacy_optimizer"]
    monkeypatch.delenv("TF_USE_LEGACY_KERAS")
    with pytest.raises(ImportError, match="`keras.optimizers.legacy` is not supported in Keras 3"):
        tf.keras.optimizers.legacy.SGD(0.1)


def test_no_gradients_error():
    v = tf.Variable(1.0, name="w")
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        tf.keras.optimizers.SGD().apply_gradients([(None, v)])


def test_losses_closed_forms_and_reductions():
    y_true = np.array([[0.0, 1.0], [1.0, 1.0]], dtype="float32")
    y_pred = np.array([[0.5, 0.5], [1.0, 0.0]], dtype="float32")
    per = np.mean((y_pred - y_true) ** 2, axis=-1)
    R = tf.keras.losses.Reduction
    mse = tf.keras.losses.MeanSquaredError
    np.testing.assert_allclose(mse(reduction=R.NONE)(y_true, y_pred).numpy(), per, rtol=1e-6)
    np.testing.assert_allclose(mse(reduction=R.SUM)(y_true, y_pred).numpy(), per.sum(), rtol=1e-6)
    np.testing.assert_allclose(mse()(y_true, y_pred).numpy(), per.mean(), rtol=1e-6)
    sw = np.array([1.0, 0.0], dtype="float32")
    np.testing.assert_allclose(mse()(y_true, y_pred, sample_weight=sw).numpy(), per[0] / 2, rtol=1e-6)
    mae = tf.keras.losses.MeanAbsoluteError()(y_true, y_pred).numpy()
    np.testing.assert_allclose(mae, np.mean(np.abs(y_pred - y_true)), rtol=1e-6)
    logits = np.array([[2.0, -1.0, 0.5]], dtype="float32")
    p = np.exp(logits) / np.exp(logits).sum()
    scce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(np.array([2]), logits).numpy()
    np.testing.assert_allclose(scce, -np.log(p[0, 2]), rtol=1e-5)
    cce = tf.keras.losses.CategoricalCrossentropy()(np.array([[0, 0, 1.0]]), p.astype("float32")).numpy()
    np.testing.assert_allclose(cce, -np.log(p[0, 2]), rtol=1e-5)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)(np.array([[1.0]]), np.array([[0.3]])).numpy()
    np.testing.assert_allclose(bce, np.log1p(np.exp(-0.3)), rtol=1e-5)
    hub = tf.keras.losses.Huber(delta=1.0)(np.array([[0.0, 0.0]]), np.array([[0.5, 3.0]])).numpy()
    np.testing.assert_allclose(hub, (0.125 + 2.5) / 2, rtol=1e-6)


def test_loss_reduction_rejected_under_strategy(monkeypatch):
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")  # tf-keras's rule (Keras 3's: test_keras_version_rules)
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    loss = tf.keras.losses.MeanSquaredError()
    with strategy.scope():
        with pytest.raises(ValueError, match="Please use `tf.keras.losses.Reduction.SUM`"):
            loss(np.ones((2, 1)), np.zeros((2, 1)))
        none = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
        assert none(np.ones((2, 1)), np.zeros((2, 1))).shape == (2,)


def test_learner_errors():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    with pytest.raises(RuntimeError, match="You must compile your model before training"):
        model.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        model(np.ones((2, 5), dtype="float32"))
    with pytest.raises(ValueError, match="Unknown loss function: 'msee'"):
        model.compile(loss="msee")
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        model.compile(optimizer="adamm", loss="mse")


def test_regularization_losses_and_names():
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        2, input_shape=(3,), kernel_initializer="ones", kernel_regularizer=tf.keras.regularizers.L2(0.5))])
    assert [w.name for w in model.weights] == ["kernel", "bias"]   # Keras 3 (the path has the layer)
    assert [w.path.split("/")[-2:] for w in model.weights] == [["dense", "kernel"], ["dense", "bias"]]
    assert len(model.losses) == 1
    np.testing.assert_allclose(float(model.losses[0]), 0.5 * 6, rtol=1e-6)


def test_functional_dict_inputs_and_predict():
    inp = tf.keras.Input(shape=(3,), name="features")
    out = tf.keras.layers.Dense(1, kernel_initializer="ones")(inp)
    model = tf.keras.Model({"features": inp}, out)
    y = model.predict({"features": np.ones((5, 3), "float32")}, verbose=0)
    np.testing.assert_allclose(y, np.full((5, 1), 3.0))


def test_weights_roundtrip_atomic_and_pickle_free(tmp_path, monkeypatch):
    # sim's npz weights: tf-keras's checkpoint stand-in (Keras 3 refuses the name)
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    path = str(tmp_path / "w.npz")
    model.save_weights(path)
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".tmp")]
    with np.load(path, allow_pickle=False) as data:
        assert "__meta__" in data.files
    other = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    other.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), other.get_weights()))


def test_t24_logged_loss_is_batch_weighted_mean():
    from sim.keras.compile_utils import LossesContainer

    c = LossesContainer("mse")
    # Two replicas' contributions to the SUM-aggregated Mean metric: 0.4 and 0.8, batch 4 each.
    c._loss_metric.update_state(0.4, sample_weight=4)
    c._loss_metric.update_state(0.8, sample_weight=4)
    np.testing.assert_allclose(float(c._loss_metric.result()), 0.6, rtol=1e-6)


class _Crash(tf.keras.callbacks.Callback):
    def __init__(self, epoch=None, batch=None):
        super().__init__()
        self.epoch, self.batch, self.cur = epoch, batch, None

    def on_epoch_begin(self, epoch, logs=None):
        self.cur = epoch
        if self.batch is None and epoch == self.epoch:
            raise RuntimeError("preempted")

    def on_train_batch_end(self, batch, logs=None):
        if self.batch is not None and (self.cur, batch) == (self.epoch, self.batch):
            raise RuntimeError("preempted")


def _small_model():
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    m.compile(optimizer="sgd", loss="mse")
    return m


def test_t29a_epoch_resume(tmp_path):
    x, y = np.ones((20, 1)), np.ones((20, 1))
    m = _small_model()
    backup = tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"))
    with pytest.raises(RuntimeError):
        m.fit(x, y, epochs=10, batch_size=10, verbose=0, callbacks=[backup, _Crash(epoch=4)])
    m2 = _small_model()
    hist = m2.fit(x, y, epochs=10, batch_size=10, verbose=0,
                  callbacks=[tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"))])
    assert hist.epoch == [4, 5, 6, 7, 8, 9]
    assert not os.path.exists(tmp_path / "b")


@pytest.mark.parametrize("crash_batch,expected", [(9, (3, 0)), (4, (2, 5))])
def test_t29bc_batch_resume(tmp_path, crash_batch, expected):
    x, y = np.ones((100, 1)), np.ones((100, 1))
    m = _small_model()
    cb = tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"), save_freq=5)
    with pytest.raises(RuntimeError):
        m.fit(x, y, epochs=5, batch_size=10, verbose=0, callbacks=[cb, _Crash(epoch=2, batch=crash_batch)])
    m2 = _small_model()
    cb2 = tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"), save_freq=5)
    cb2.set_model(m2)
    cb2.on_train_begin()
    assert m2._training_state.maybe_load_initial_counters_from_ckpt(10, 0) == expected
    assert int(m2.optimizer.iterations.numpy()) == int(m.optimizer.iterations.numpy())


def test_model_checkpoint_and_progress_line(tmp_path, capsys):
    x, y = np.ones((20, 1)), np.ones((20, 1))
    m = _small_model()
    cb = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "model_{epoch}.weights.h5"),
                                            save_weights_only=True)
    m.fit(x, y, epochs=2, batch_size=10, callbacks=[cb])
    assert os.path.exists(tmp_path / "model_1.weights.h5") and os.path.exists(tmp_path / "model_2.weights.h5")
    out = capsys.readouterr().out
    assert "Epoch 1/2" in out and "2/2 [==============================]" in out and "(simulated)" in out
    assert "loss: " in out


def test_lr_scheduler_and_early_stopping(monkeypatch):
    x, y = np.ones((20, 1)), np.ones((20, 1))
    for legacy, key in (("1", "lr"), ("0", "learning_rate")):  # tf-keras, then Keras 3
        monkeypatch.setenv("TF_USE_LEGACY_KERAS", legacy)
        m = _small_model()
        hist = m.fit(x, y, epochs=3, batch_size=10, verbose=0, callbacks=[
            tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 * (epoch + 1))])
        np.testing.assert_allclose(hist.history[key], [0.1, 0.2, 0.3], rtol=1e-6)
        assert ({"lr", "learning_rate"} - {key}).isdisjoint(hist.history)  # the other name is absent
    m2 = _small_model()
    h2 = m2.fit(x, y, epochs=50, batch_size=10, verbose=0, validation_split=0.5, callbacks=[
        tf.keras.callbacks.EarlyStopping(monitor="loss", min_delta=10.0, patience=1)])
    assert len(h2.epoch) < 50 and "val_loss" in h2.history
