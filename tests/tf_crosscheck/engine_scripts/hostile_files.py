"""Issue 36: what each engine does with hostile weights files, BackupAndRestore's folder and
skip_mismatch. Run unchanged on sim.tf and (python -m sim.launch.tf_task) on TensorFlow 2.21;
prints one ENGINE-JSON line: per case the exception class (or "loaded") and what it showed."""
import io
import json
import os
import sys
import tempfile
import warnings
import zipfile

import h5py
import numpy as np

import sim.tf as tf

warnings.simplefilter("ignore")
os.chdir(tempfile.mkdtemp(prefix="hostile-"))
SECRET = b"-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjE"[:48]
open("private.txt", "wb").write(SECRET)
out = {}


def model(width=3):
    m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(width),
                             tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    m.compile("adam", "mse")
    return m


def kernel(f):
    found = []
    f.visititems(lambda n, o: found.append(n) if isinstance(o, h5py.Dataset) and o.shape == (4, 3)
                 else None)
    return found[0]


def external(f):
    name = kernel(f)
    del f[name]
    f.create_dataset(name, shape=(4, 3), dtype="<f4", external=[(os.path.abspath("private.txt"), 0, 48)])


def bomb(f):
    name = kernel(f)
    del f[name]
    f.create_dataset(name, shape=(2 ** 34,), dtype="<f4", chunks=(1 << 20,), compression="gzip")


def in_keras(path, edit):
    members = {n: zipfile.ZipFile(path).read(n) for n in zipfile.ZipFile(path).namelist()}
    buf = io.BytesIO(members["model.weights.h5"])
    with h5py.File(buf, "r+") as f:
        edit(f)
    members["model.weights.h5"] = buf.getvalue()
    with zipfile.ZipFile(path, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)


def outcome(load):
    try:
        loaded = load()
    except Exception as e:       # noqa: BLE001 - the class is what is compared
        text = str(e)
        return {"class": type(e).__name__, "not_allowed": "Not allowed" in text,
                "secret_shown": SECRET[:20].decode() in text}
    weights = loaded.get_weights()
    return {"class": "loaded", "secret_loaded": any(np.asarray(w).tobytes() == SECRET for w in weights)}


m = model()
m.fit(np.ones((8, 4), np.float32), np.ones((8, 1), np.float32), epochs=1, verbose=0)
keras3 = os.environ.get("TF_USE_LEGACY_KERAS") != "1"
m.save("ext.keras")
in_keras("ext.keras", external)
out["external_keras"] = outcome(lambda: tf.keras.models.load_model("ext.keras"))
m.save_weights("ext.weights.h5")
with h5py.File("ext.weights.h5", "r+") as f:
    external(f)
out["external_weights_h5"] = outcome(lambda: (m.load_weights("ext.weights.h5"), m)[1])
m.save("ext.h5")
with h5py.File("ext.h5", "r+") as f:
    external(f)
out["external_h5"] = outcome(lambda: tf.keras.models.load_model("ext.h5"))
m.save_weights("link.weights.h5")
m.save_weights("other.weights.h5")
with h5py.File("link.weights.h5", "r+") as f:
    group = next(k for k in f["layers"]) if "layers" in f else next(iter(f))
    path = f"layers/{group}" if "layers" in f else group
    del f[path]
    f[path] = h5py.ExternalLink(os.path.abspath("other.weights.h5"), path)
out["external_link"] = outcome(lambda: (m.load_weights("link.weights.h5"), m)[1])
m.save_weights("bomb.weights.h5")
with h5py.File("bomb.weights.h5", "r+") as f:
    bomb(f)
out["shape_bomb"] = outcome(lambda: (m.load_weights("bomb.weights.h5"), m)[1])

# BackupAndRestore: a folder of the learner's, and a folder of its own
for case in ("learners", "own"):
    d = os.path.abspath(f"backup_{case}")
    os.makedirs(d)
    if case == "learners":
        open(os.path.join(d, "notes.txt"), "w").write("a week of work\n")
    model().fit(np.ones((8, 4), np.float32), np.ones((8, 1), np.float32), epochs=2, verbose=0,
                callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir=d)])
    out[f"backup_{case}"] = {"dir": os.path.isdir(d),
                             "notes": os.path.exists(os.path.join(d, "notes.txt")),
                             "chief": os.path.exists(os.path.join(d, "chief"))}

# skip_mismatch: the weights of a narrower model
narrow, wide = model(3), model(5)
for x in (narrow, wide):
    x.fit(np.ones((8, 4), np.float32), np.ones((8, 1), np.float32), epochs=1, verbose=0)
narrow.save_weights("narrow.weights.h5")
before = [w.copy() for w in wide.get_weights()]
out["mismatch"] = outcome(lambda: (wide.load_weights("narrow.weights.h5"), wide)[1])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        wide.load_weights("narrow.weights.h5", skip_mismatch=True)
        after = wide.get_weights()
        out["skip_mismatch"] = {
            "warned": any("could not be loaded" in str(w.message) or "Skipping" in str(w.message)
                          for w in caught),
            "kept": [bool(np.array_equal(a, b)) for a, b in zip(after, before)],
            "took": [bool(np.array_equal(a, b)) for a, b in zip(after, narrow.get_weights())
                     if a.shape == b.shape]}
    except Exception as e:     # noqa: BLE001
        out["skip_mismatch"] = {"class": type(e).__name__}
print("ENGINE-JSON " + json.dumps(out, sort_keys=True), flush=True)
sys.exit(0)
