"""Issue 36: the hypothesis fuzz of tests/test_fuzz_inputs.py, extended to the model files a
classmate can hand a learner: ``.keras`` zips (damaged bytes, crafted members, lying sizes),
HDF5 weights (``.weights.h5`` and the legacy ``.h5``: damaged bytes, and structural edits such
as external storage, links, shape bombs, wrong types and shapes) and SavedModel folders (any
marker JSON, the model member swapped for a directory, a link or a FIFO).

Every input either loads, or raises one of the error types TensorFlow's Keras raises for a bad
file (ValueError and its JSONDecodeError, KeyError, OSError, zipfile.BadZipFile, TypeError where
Keras's own config reader raises it) naming the file; a load never takes more memory than a bound
set by the file's and the model's size (tracemalloc sees NumPy's buffers: a shape bomb would be
one), and the whole module stays under a peak RSS bound. Derandomized: the same cases each run,
seconds in make test.
"""
import atexit
import io
import json
import os
import resource
import shutil
import tempfile
import tracemalloc
import warnings
import zipfile

import h5py
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

import sim.tf as tf

ALLOWED = (ValueError, KeyError, OSError, zipfile.BadZipFile, TypeError)
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
WORK = tempfile.mkdtemp(prefix="sim-fuzz-files-")
atexit.register(shutil.rmtree, WORK, True)
RSS_BOUND_MB = 1500


def _model():
    m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
    m.compile("adam", "mse")
    m.fit(np.ones((4, 4), np.float32), np.ones((4, 2), np.float32), verbose=0)
    return m


MODEL = _model()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    MODEL.save(os.path.join(WORK, "good.keras"))
    MODEL.save_weights(os.path.join(WORK, "good.weights.h5"))
    MODEL.save(os.path.join(WORK, "good.h5"))
GOOD = {ext: open(os.path.join(WORK, "good" + ext), "rb").read() for ext in (".keras", ".weights.h5", ".h5")}
MODEL_BYTES = sum(np.asarray(w).nbytes for w in MODEL.get_weights())


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if path.endswith(".weights.h5"):
            target = _model()
            target.load_weights(path)
            return target
        return tf.keras.models.load_model(path)


def _check(path, size):
    """Load ``path`` with memory bounded; an error must be an allowed type naming the file."""
    tracemalloc.start()
    try:
        _load(path)
    except ALLOWED as e:
        assert os.path.basename(path) in str(e) or path in str(e), f"{type(e).__name__}: {e}"
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 8 * (size + MODEL_BYTES) + 16 * 2**20, (peak, size)


# ------------------------------------------------------------------ damaged bytes

mutation = st.tuples(st.sampled_from(["flip", "cut", "byte", "insert"]), st.integers(0, 2**20),
                     st.integers(0, 255))


def _mutate(data, mutations):
    raw = bytearray(data)
    for kind, at, value in mutations:
        if not raw:
            break
        at %= len(raw)
        if kind == "flip":
            raw[at] ^= 1 << (value % 8)
        elif kind == "cut":
            del raw[at:]
        elif kind == "byte":
            raw[at] = value
        else:
            raw.insert(at, value)
    return bytes(raw)


@FUZZ
@given(st.sampled_from(sorted(GOOD)), st.lists(mutation, min_size=1, max_size=3))
def test_a_damaged_model_file_loads_or_is_a_named_error(ext, mutations):
    data = _mutate(GOOD[ext], mutations)
    path = os.path.join(WORK, "damaged" + ext)
    with open(path, "wb") as f:
        f.write(data)
    _check(path, len(data))


# ------------------------------------------------------------------ crafted .keras archives

member = st.tuples(st.sampled_from(["metadata.json", "config.json", "model.weights.h5", "junk.bin",
                                    "../escape.txt", "/abs.txt"]),
                   st.sampled_from(["good", "empty", "json", "zeros"]),
                   st.booleans(), st.sampled_from([None, 2**31, 2**40]))


def _member_bytes(name, kind, members):
    if kind == "good":
        return members.get(name, b"{}")
    return {"empty": b"", "json": b'{"class_name": 5}', "zeros": bytes(1 << 16)}[kind]


def _lie_about_sizes(data, lies):
    """Patch each central-directory entry's uncompressed size (a zip may declare anything)."""
    raw = bytearray(data)
    at = raw.find(b"PK\x01\x02")
    for lie in lies:
        if at < 0:
            break
        if lie is not None:
            raw[at + 24:at + 28] = (lie & 0xFFFFFFFF or 0xFFFFFFFE).to_bytes(4, "little")
        at = raw.find(b"PK\x01\x02", at + 4)
    return bytes(raw)


@FUZZ
@given(st.lists(member, min_size=0, max_size=4, unique_by=lambda m: m[0]))
def test_a_crafted_keras_archive_is_read_or_refused_with_memory_bounded(parts):
    with zipfile.ZipFile(io.BytesIO(GOOD[".keras"])) as z:
        members = {n: z.read(n) for n in z.namelist()}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, kind, deflate, _ in parts:
            z.writestr(name, _member_bytes(name, kind, members),
                       zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED)
    data = _lie_about_sizes(buf.getvalue(), [lie for *_, lie in parts])
    path = os.path.join(WORK, "crafted.keras")
    with open(path, "wb") as f:
        f.write(data)
    _check(path, len(data))
    assert not os.path.exists(os.path.join(os.path.dirname(WORK), "escape.txt"))


# ------------------------------------------------------------------ structural HDF5 edits

edit = st.one_of(
    st.tuples(st.just("shape"), st.lists(st.integers(0, 2**20), min_size=0, max_size=3),
              st.sampled_from(["<f4", "<f8", "<i8", "|u1", "|S4"]), st.booleans()),
    st.tuples(st.just("external"), st.just(None), st.just(None), st.just(None)),
    st.tuples(st.sampled_from(["softlink", "selflink", "extlink", "hardlink", "group", "delete"]),
              st.just(None), st.just(None), st.just(None)),
)


def _apply(f, kind, shape, dtype, compressed):
    found = []
    f.visititems(lambda n, o: found.append(n) if isinstance(o, h5py.Dataset) else None)
    name = found[0]
    other = found[-1]
    del f[name]
    if kind == "shape":
        shape = tuple(shape)
        chunks = (1,) * len(shape) if compressed and shape and all(shape) else None
        f.create_dataset(name, shape=shape, dtype=dtype, chunks=chunks,
                         compression="gzip" if chunks else None)
    elif kind == "external":
        f.create_dataset(name, shape=(4, 3), dtype="<f4",
                         external=[(os.path.join(WORK, "good.keras"), 0, 48)])
    elif kind == "softlink":
        f[name] = h5py.SoftLink("/" + other)
    elif kind == "selflink":
        f[name] = h5py.SoftLink("/" + name)
    elif kind == "extlink":
        f[name] = h5py.ExternalLink(os.path.join(WORK, "good.weights.h5"), "/" + other)
    elif kind == "hardlink":
        f[name] = f[other]
    elif kind == "group":
        f.create_group(name)


@FUZZ
@given(st.sampled_from([".weights.h5", ".h5", ".keras"]), edit)
def test_an_edited_hdf5_weights_file_never_reads_elsewhere_or_allocates_a_bomb(ext, change):
    path = os.path.join(WORK, "edited" + ext)
    if ext == ".keras":
        with zipfile.ZipFile(io.BytesIO(GOOD[ext])) as z:
            members = {n: z.read(n) for n in z.namelist()}
        buf = io.BytesIO(members["model.weights.h5"])
        with h5py.File(buf, "r+") as f:
            _apply(f, *change)
        members["model.weights.h5"] = buf.getvalue()
        with zipfile.ZipFile(path, "w") as z:
            for n, b in members.items():
                z.writestr(n, b)
    else:
        with open(path, "wb") as f:
            f.write(GOOD[ext])
        with h5py.File(path, "r+") as f:
            _apply(f, *change)
    if change[0] in ("external", "softlink", "selflink", "extlink"):
        try:
            _load(path)
        except ValueError as e:
            assert "Not allowed: H5 file with" in str(e) and os.path.basename(path) in str(e)
        else:
            raise AssertionError(f"{change[0]} was followed")
        return
    _check(path, os.path.getsize(path))


# ------------------------------------------------------------------ SavedModel folders

_leaf = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["model.keras", "", "x", "../m"])
_any = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(
    st.sampled_from(["inputs", "outputs", "serving_default", "a"]), inner, max_size=2), max_leaves=5)
markers = st.one_of(_any, st.fixed_dictionaries({"format": st.just("sim.tf.saved_model/1")}, optional={
    "model": _any, "signatures": _any, "resolved_metrics": _any}))


@FUZZ
@given(markers, st.sampled_from(["file", "missing", "directory", "symlink", "fifo"]))
def test_a_saved_model_folder_loads_or_is_a_named_oserror(marker, member):
    folder = tempfile.mkdtemp(dir=WORK)
    with open(os.path.join(folder, "sim_saved_model.json"), "w") as f:
        json.dump(marker, f)
    model = os.path.join(folder, "model.keras")
    if member == "file":
        shutil.copy(os.path.join(WORK, "good.keras"), model)
    elif member == "directory":
        os.mkdir(model)
    elif member == "symlink":
        os.symlink(os.path.join(WORK, "good.keras"), model)
    elif member == "fifo":
        os.mkfifo(model)
    for load in (tf.saved_model.load, tf.keras.models.load_model):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                load(folder)
        except ALLOWED as e:
            assert folder in str(e), f"{type(e).__name__}: {e}"
    shutil.rmtree(folder)


def test_the_fuzz_stayed_within_its_memory_bound():
    """Run last in this module (pytest keeps file order): the process's peak RSS so far."""
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    assert peak_mb < RSS_BOUND_MB, peak_mb
