"""The logged loss gives an empty replica weight 0, as TensorFlow does (found by tests/tf_crosscheck)."""
import numpy as np

import sim.tf as tf


def test_empty_replica_does_not_count_in_the_logged_loss():
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(4)])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
        model.set_weights([np.ones((1, 1), np.float32), np.zeros((1,), np.float32)])
        model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.0))
    # 14 examples, global batch 8: the second batch of 6 splits 2,2,2,0; every squared error is 1.
    history = model.fit(np.ones((14, 1), np.float32), np.zeros((14, 1), np.float32),
                        batch_size=8, epochs=1, verbose=0)
    assert history.history["loss"] == [1.0]
    assert model.evaluate(np.ones((14, 1), np.float32), np.zeros((14, 1), np.float32),
                          batch_size=8, verbose=0) == 1.0
