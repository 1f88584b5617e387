"""A dropped MirroredStrategy frees its replica threads and their pipes at once (issue 9, bug 1).

The replica threads used to keep the last merge function (a bound method of the optimizer,
which reaches the strategy) and the strategy's parts pointed back at it, so the finalizer that
closes the pool never ran: 100 strategies left 405 threads and 1,016 open descriptors.
No ``gc.collect()`` here: the strategy must be freed by reference counting alone.
"""
import gc
import os
import threading

import numpy as np
import pytest

import sim.tf as tf


def _counts():
    return threading.active_count(), len(os.listdir("/proc/self/fd"))


def _custom_loop_step():
    st = tf.distribute.MirroredStrategy()
    with st.scope():
        v = tf.Variable(1.0)
        opt = tf.keras.optimizers.SGD(0.1)

    def step():
        with tf.GradientTape() as t:
            loss = v * v
        opt.apply_gradients(zip(t.gradient(loss, [v]), [v]))
    st.run(step)


def _fit_and_evaluate():
    st = tf.distribute.MirroredStrategy()
    with st.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((8, 2), np.float32), np.ones((8, 1), np.float32)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    model.evaluate(x, y, batch_size=8, verbose=0)


_PROC = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")


@_PROC
def test_200_dropped_strategies_leave_no_thread_or_descriptor():
    """The issue's reproducer: a custom loop whose replicas called apply_gradients."""
    _custom_loop_step()          # first use: lazy imports and caches settle
    enabled = gc.isenabled()
    gc.disable()                 # reference counting alone must free them
    try:
        before = _counts()
        for _ in range(200):
            _custom_loop_step()
        after = _counts()
    finally:
        if enabled:
            gc.enable()
    assert after == before, f"threads, descriptors before {before}, after 200 strategies {after}"


@_PROC
def test_strategies_of_dropped_keras_models_are_freed():
    """fit/evaluate: a Keras model is a reference cycle (layers and nodes, model and History, as
    in Keras), so its strategy goes when Python's cycle collector runs. Before the fix even the
    collector could not free it: live replica threads held the optimizer's merge function."""
    _fit_and_evaluate()
    gc.collect()
    before = _counts()
    for _ in range(10):
        _fit_and_evaluate()
    gc.collect()                 # the model's own cycle; the strategy must then go with it
    assert _counts() == before
