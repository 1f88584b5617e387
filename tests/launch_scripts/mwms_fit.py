"""Model.fit under MultiWorkerMirroredStrategy (float64), run by the launcher; with BACKUP_DIR
set, a BackupAndRestore callback backs up every epoch (the failure-and-resume test).

Each worker saves its final weights and clock to OUT_<type>_<index>.npz. ``fit_model`` also
runs in one process (tests import it), so both sides train the very same model.
"""
import json
import os
import sys

import numpy as np

import sim.tf as tf

GLOBAL_BATCH = 8
EPOCHS = 3


def data():
    rng = np.random.RandomState(1)
    return rng.randn(48, 3), rng.randn(48, 1)


def fit_model(strategy, epochs=EPOCHS, callbacks=()):
    before = tf.keras.backend.floatx()
    tf.keras.backend.set_floatx("float64")
    try:
        x, y = data()
        with strategy.scope():
            model = tf.keras.Sequential([
                tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,),
                                      kernel_initializer=tf.keras.initializers.GlorotUniform(seed=3)),
                tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=4))])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9), loss="mse")
        ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
        history = model.fit(ds, epochs=epochs, verbose=0, callbacks=list(callbacks))
    finally:
        tf.keras.backend.set_floatx(before)
    return [v.numpy() for v in model.weights], history.history["loss"]

if __name__ == "__main__":
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    callbacks = []
    if os.environ.get("BACKUP_DIR"):
        callbacks.append(tf.keras.callbacks.BackupAndRestore(os.environ["BACKUP_DIR"]))
    weights, losses = fit_model(strategy, callbacks=callbacks)
    from sim.runtime import clock
    np.savez(f"{sys.argv[1]}_{task['type']}_{task['index']}.npz", *weights,
             losses=np.array(losses), now=clock().now)
    print("done epochs", len(losses))
