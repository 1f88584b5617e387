"""A corpus of damaged ``.keras`` / ``.weights.h5`` files, each loaded: which exception, and
whether its message names the file. Run unchanged on sim.tf and on TensorFlow 2.21 (Keras 3);
prints one ENGINE-JSON line {case: [exception class, names the file]}.

The corpus is made from this engine's own good files, so each engine meets the same damage.
"""
import json
import os
import sys
import zipfile

import h5py
import numpy as np

import sim.tf as tf

L = tf.keras.layers


def model(layers=2):
    return tf.keras.Sequential([tf.keras.Input((4,))] + [L.Dense(3) for _ in range(layers)])


def _rezip(src, dst, drop=(), replace=None):
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w") as out:
        for name in z.namelist():
            if name not in drop:
                out.writestr(name, (replace or {}).get(name, z.read(name)))


def _flip_in_member(src, dst, member):
    data = bytearray(open(src, "rb").read())
    with zipfile.ZipFile(src) as z:
        info = z.getinfo(member)
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0x10
    open(dst, "wb").write(bytes(data))


def corpus(d):
    good_keras, good_weights = os.path.join(d, "good.keras"), os.path.join(d, "good.weights.h5")
    model().save(good_keras)
    model().save_weights(good_weights)
    keras_bytes, weights_bytes = open(good_keras, "rb").read(), open(good_weights, "rb").read()
    foreign = os.path.join(d, "foreign.weights.h5")
    with h5py.File(foreign, "w") as f:
        f["x"] = np.arange(3)
    cases = {}

    def case(name, data=None):
        path = os.path.join(d, name)
        if data is not None:
            open(path, "wb").write(data)
        return path
    cases["keras truncated"] = ("load_model", case("truncated.keras", keras_bytes[:len(keras_bytes) // 2]))
    cases["keras empty"] = ("load_model", case("empty.keras", b""))
    cases["keras missing"] = ("load_model", case("missing.keras"))
    cases["keras not a zip"] = ("load_model", case("text.keras", b"not a zip archive at all"))
    _rezip(good_keras, case("noconfig.keras"), drop=("config.json",))
    cases["keras without config.json"] = ("load_model", case("noconfig.keras"))
    _rezip(good_keras, case("noweights.keras"), drop=("model.weights.h5",))
    cases["keras without weights"] = ("load_model", case("noweights.keras"))
    _rezip(good_keras, case("badjson.keras"), replace={"config.json": b"{not json"})
    cases["keras config not json"] = ("load_model", case("badjson.keras"))
    _rezip(good_keras, case("foreign.keras"), replace={"model.weights.h5": open(foreign, "rb").read()})
    cases["keras foreign hdf5"] = ("load_model", case("foreign.keras"))
    _flip_in_member(good_keras, case("flip.keras"), "model.weights.h5")
    cases["keras bit flip"] = ("load_model", case("flip.keras"))
    cases["weights foreign hdf5"] = ("load_weights", foreign)
    cases["weights not hdf5"] = ("load_weights", case("text.weights.h5", b"hello"))
    cases["weights truncated"] = ("load_weights", case("trunc.weights.h5", weights_bytes[:1500]))
    cases["weights missing"] = ("load_weights", case("missing.weights.h5"))
    model(layers=1).save_weights(case("one_layer.weights.h5"))
    cases["weights fewer layers than the model"] = ("load_weights", case("one_layer.weights.h5"))
    tf.keras.Sequential([tf.keras.Input((5,)), L.Dense(3), L.Dense(3)]).save_weights(
        case("wide.weights.h5"))
    cases["weights other shapes"] = ("load_weights", case("wide.weights.h5"))
    return cases


def run(d):
    out = {}
    for name, (how, path) in corpus(d).items():
        try:
            if how == "load_model":
                tf.keras.models.load_model(path)
            else:
                model().load_weights(path)
            out[name] = ["no error", False]
        except Exception as e:            # recorded and compared by the test
            out[name] = [type(e).__name__, os.path.basename(path) in str(e)]
    return out


if __name__ == "__main__":
    print("ENGINE-JSON " + json.dumps(run(sys.argv[1])))
