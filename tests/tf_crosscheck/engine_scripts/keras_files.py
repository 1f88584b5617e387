"""Keras 3 files across engines: ``save DIR`` trains and saves four models, ``load DIR`` loads
what the other (or the same) engine saved, predicts, and trains on from the loaded state.

Run unchanged on sim.tf (``python keras_files.py ...``) and on TensorFlow 2.21 with Keras 3
(``python -m sim.launch.tf_task keras_files.py ...``); prints one ENGINE-JSON line.
"""
import json
import os
import sys

import numpy as np

import sim.tf as tf

L = tf.keras.layers
LEGACY = os.environ.get("TF_USE_LEGACY_KERAS") in ("1", "true", "True")
RNG = np.random.default_rng(7)
X = RNG.normal(size=(32, 4)).astype("float32")
Y = (X[:, 0] > X[:, 1]).astype("int64") + (X[:, 2] > 0.5).astype("int64")
IMAGES = RNG.normal(size=(16, 6, 6, 1)).astype("float32")
TARGETS = RNG.normal(size=(16, 3)).astype("float32")
IDS = RNG.integers(0, 10, size=(8, 3)).astype("int32")


@tf.keras.utils.register_keras_serializable(package="course")
class TwoLayer(tf.keras.Model):
    def __init__(self, units=5, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.hidden = L.Dense(units, activation="tanh")
        self.head = L.Dense(1)

    def call(self, x):
        return self.head(self.hidden(x))

    def get_config(self):
        return {"units": self.units, **super().get_config()}


def build_all():
    tf.keras.utils.set_random_seed(1)
    seq = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(8, activation="relu"),
                               L.Dense(3, activation="softmax")])
    seq.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    seq.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)

    inp = tf.keras.Input((6, 6, 1), name="image")
    x = L.Conv2D(2, 3, activation="relu", name="conv")(inp)
    x = L.MaxPooling2D(name="pool")(x)
    x = L.Flatten(name="flat")(x)
    out = L.Dense(3, name="out")(x)
    fun = tf.keras.Model(inp, out, name="cnn")
    fun.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9), loss="mse")
    fun.fit(IMAGES, TARGETS, batch_size=4, epochs=1, shuffle=False, verbose=0)

    emb = tf.keras.Sequential([tf.keras.Input((3,), dtype="int32"), L.Embedding(10, 4),
                               L.Dropout(0.3), L.Flatten(), L.Dense(2)])

    sub = TwoLayer(units=5, name="two_layer")
    sub.compile(optimizer=tf.keras.optimizers.RMSprop(0.01), loss="mse")
    sub.fit(X, X[:, :1] * 2.0, batch_size=8, epochs=1, shuffle=False, verbose=0)
    return {"seq": seq, "fun": fun, "emb": emb, "sub": sub}


def inputs(name):
    return {"seq": X, "fun": IMAGES, "emb": IDS, "sub": X}[name]


def train_on(name, model):
    if name == "seq":
        model.fit(X, Y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    elif name == "fun":
        model.fit(IMAGES, TARGETS, batch_size=4, epochs=1, shuffle=False, verbose=0)
    elif name == "sub":
        model.fit(X, X[:, :1] * 2.0, batch_size=8, epochs=1, shuffle=False, verbose=0)


def predict(model, name):
    return np.asarray(model.predict(inputs(name), verbose=0)).astype(float).tolist()


def save(directory):
    out = {}
    for name, model in build_all().items():
        model.save(os.path.join(directory, name + ".keras"))
        out[name] = predict(model, name)
        if name == "seq":                 # the legacy HDF5 full-model file too
            model.save(os.path.join(directory, "seq_full.h5"))
    again = build_all()["seq"]
    again.save_weights(os.path.join(directory, "seq.weights.h5"))
    if LEGACY:                         # tf-keras's HDF5 weights file (Keras 3 refuses to write it)
        again.save_weights(os.path.join(directory, "seq.h5"))
    return out


def load(directory):
    out = {}
    for name in ("seq", "fun", "emb", "sub", "seq_full"):
        file = "seq_full.h5" if name == "seq_full" else name + ".keras"
        model = tf.keras.models.load_model(os.path.join(directory, file))
        name = "seq" if name == "seq_full" else name
        entry = {"predict": predict(model, name), "class": type(model).__name__,
                 "weights": [list(w.shape) for w in model.get_weights()]}
        if name != "emb":
            entry["iterations"] = int(model.optimizer.iterations.numpy())
            entry["optimizer"] = type(model.optimizer).__name__
            # Keras 3.15 cannot train on after loading a legacy .h5 ("Unknown variable": its
            # optimizer is built before the weights are set); tf-keras can
            if LEGACY or not file.endswith(".h5"):
                train_on(name, model)
                entry["after_training"] = predict(model, name)
        out[name + ("_full" if file.endswith(".h5") else "")] = entry
    # the same weights with a fresh Adam: training on differs when the saved moments are used
    restarted = tf.keras.models.load_model(os.path.join(directory, "seq.keras"), compile=False)
    restarted.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                      loss="sparse_categorical_crossentropy")
    train_on("seq", restarted)
    out["seq_fresh_optimizer"] = predict(restarted, "seq")
    fresh = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(8, activation="relu"),
                                 L.Dense(3, activation="softmax")])
    fresh.load_weights(os.path.join(directory, "seq.weights.h5"))
    out["seq_weights"] = predict(fresh, "seq")
    if LEGACY:
        fresh = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(8, activation="relu"),
                                     L.Dense(3, activation="softmax")])
        fresh.load_weights(os.path.join(directory, "seq.h5"))
        out["seq_h5"] = predict(fresh, "seq")
    return out


if __name__ == "__main__":
    mode, directory = sys.argv[1], sys.argv[2]
    result = save(directory) if mode == "save" else load(directory)
    print("ENGINE-JSON " + json.dumps(result))
