"""tf-keras's legacy saves resolve a compiled 'accuracy' from the model's outputs (a SavedModel
directory or .h5 saved before any fit gives categorical accuracy, on index labels; a .keras file
or a fit first does not), in the saved model and the one loaded back. Prints ENGINE-JSON with
each case's fit history; unedited between engines (run with TF_USE_LEGACY_KERAS=1)."""
import json
import os
import sys
import tempfile

import numpy as np

import sim.tf as tf

X = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
Y = (np.arange(32) % 3).astype("int64")
KERNEL = np.random.default_rng(1).normal(size=(4, 3)).astype("float32")


def build(metrics, units=3):
    model = tf.keras.Sequential([tf.keras.layers.InputLayer(input_shape=(4,)),
                                 tf.keras.layers.Dense(units)])
    model.set_weights([KERNEL[:, :units], np.zeros(units, np.float32)])
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True) if units > 1 else "mse"
    model.compile(loss=loss, optimizer=tf.keras.optimizers.SGD(0.1), metrics=metrics)
    return model


def history(model):
    h = model.fit(X, Y, epochs=2, batch_size=8, shuffle=False, verbose=0).history
    return {k: [round(float(v), 6) for v in vs] for k, vs in sorted(h.items())}


out = {}
with tempfile.TemporaryDirectory() as work:
    for case, suffix, fit_first, metrics, units in (
            ("dir", "", False, ["accuracy"], 3), ("dir_fit_first", "", True, ["accuracy"], 3),
            ("h5", ".h5", False, ["acc", "mse"], 3), ("keras", ".keras", False, ["accuracy"], 3),
            ("h5_binary", ".h5", False, ["accuracy"], 1),
            ("named", "", False, ["sparse_categorical_accuracy"], 3)):
        model = build(metrics, units)
        if fit_first:
            history(model)
        path = os.path.join(work, case + suffix)
        model.save(path)
        loaded = tf.keras.models.load_model(path)
        out[case] = {"saved": history(model), "loaded": history(loaded)}
print("ENGINE-JSON " + json.dumps(out))
sys.stdout.flush()
