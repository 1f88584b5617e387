"""A strategy dropped with a Keras model it trained releases its replica threads and their pipes
at once, not when the garbage collector next runs: the model and its History referred to each
other (model.history, History.model), and that cycle held the model, and through it the
strategy. History now refers to its model weakly."""
import gc
import os
import sys
import threading

import numpy as np
import pytest

import sim.tf as tf

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _fds():
    return len(os.listdir("/proc/self/fd"))


def _train_and_drop(make, how):
    x = np.random.RandomState(0).randn(64, 4).astype("float32")
    y = x.sum(1, keepdims=True)
    strategy = make()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
        model.compile("sgd", "mse", metrics=["mae"])
    if how == "fit":
        history = model.fit(x, y, epochs=2, batch_size=16, verbose=0)
        assert history.model is model and model.history is history
    elif how == "fit+validation+callbacks":
        model.fit(x, y, epochs=2, batch_size=16, verbose=0, validation_data=(x, y),
                  callbacks=[tf.keras.callbacks.EarlyStopping(patience=1)])
    else:
        model.fit(x, y, epochs=1, batch_size=16, verbose=0)
        model.evaluate(x, y, verbose=0)
        model.predict(x, verbose=0)


@pytest.mark.parametrize("how", ["fit", "fit+validation+callbacks", "fit+evaluate+predict"])
@pytest.mark.parametrize("make", [tf.distribute.MirroredStrategy,
                                  tf.distribute.experimental.CentralStorageStrategy,
                                  tf.distribute.MultiWorkerMirroredStrategy],
                         ids=["mirrored", "central_storage", "mwms"])
def test_a_dropped_strategy_and_model_release_threads_and_descriptors_without_the_gc(make, how):
    gc.collect()
    threads, fds = threading.active_count(), _fds()
    gc.disable()
    try:
        for _ in range(3):
            _train_and_drop(make, how)
        assert (threading.active_count(), _fds()) == (threads, fds)
    finally:
        gc.enable()


def test_history_keeps_its_record_after_the_model_is_gone():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        model.compile("sgd", "mse")
    history = model.fit(np.ones((8, 2)), np.ones((8, 1)), epochs=2, verbose=0)
    del model, strategy
    assert history.model is None and len(history.history["loss"]) == 2 and history.epoch == [0, 1]
