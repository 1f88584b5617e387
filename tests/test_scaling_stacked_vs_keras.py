"""The stacked NumPy trainer is the SGD that Model.fit does under MirroredStrategy.

E2 and E3 train with ``teacher_mlp.train_stacked`` (fast: many runs in one set of arrays). Here
one of its runs is replayed step for step by ``sim.tf`` Keras on 4 simulated GPUs, same initial
weights, same batches, same warmup schedule: the weights agree to float32 rounding.
"""
import numpy as np
import pytest

import sim.tf as tf
from sim.scaling import GradualWarmup, learning_rates
from sim.scaling.teacher_mlp import DIM, HIDDEN, CLASSES, start_and_order, teacher_data, train_stacked

BATCH, EPOCHS, SEED = 512, 1, 0


def schedule():
    decay = tf.keras.optimizers.schedules.PiecewiseConstantDecay([10], [1.6, 0.16])
    return GradualWarmup(decay, warmup_steps=8, warmup_learning_rate=0.1)


def test_stacked_run_equals_model_fit_under_mirrored_strategy():
    data = teacher_data(0)
    steps = (len(data.x_train) // BATCH) * EPOCHS
    runs = train_stacked(data, BATCH, learning_rates(schedule(), steps)[None], seeds=(SEED,), epochs=EPOCHS)

    init, order = start_and_order(SEED, BATCH, EPOCHS)
    tf.keras.backend.clear_session()
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(4)])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(HIDDEN, activation="relu", input_shape=(DIM,)),
                                     tf.keras.layers.Dense(CLASSES)])
        model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      optimizer=tf.keras.optimizers.SGD(learning_rate=schedule()))
    model.set_weights([np.asarray(w, np.float32) for w in init])
    x, y = data.x_train[order.ravel()], data.y_train[order.ravel()]
    history = model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0)

    assert int(model.optimizer.iterations.numpy()) == steps
    for keras_w, stacked_w, start in zip(model.get_weights(), runs.weights, init):
        assert not np.allclose(keras_w, start)                       # training moved it
        np.testing.assert_allclose(keras_w, stacked_w[0, 0], rtol=1e-4, atol=1e-5)
    assert history.history["loss"][0] == pytest.approx(runs.train_loss[0, 0].mean(), rel=1e-4)
