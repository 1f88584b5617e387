"""Issue 24: a fuzz test over what a learner's disk and environment can hand the simulator:
checkpoint files (damaged copies of a real one), crafted .npz archives, checkpoint state files
and TF_CONFIG texts (model files: tests/test_fuzz_model_files.py). Every input either loads (a damaged checkpoint never loads different
numbers) or raises one of TensorFlow's error types naming the file or the field
(NotFoundError, DataLossError, InvalidArgumentError, ValueError; TypeError where TensorFlow's
own ClusterSpec raises it), and loading never takes memory beyond a bound set by the file's
size. Bounded, derandomized examples: seconds in make test, the same cases every run."""
import atexit
import io
import json
import os
import shutil
import tempfile
import tracemalloc
import zipfile

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

import sim.tf as tf
from sim.storage import safe_io
from sim.distribute import tf_config
from sim.storage import checkpoint_state

ALLOWED = (tf.errors.NotFoundError, tf.errors.DataLossError, tf.errors.InvalidArgumentError,
           ValueError)
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
WORK = tempfile.mkdtemp(prefix="sim-fuzz-")
atexit.register(shutil.rmtree, WORK, True)       # no temporary file outlives the test run


def _good_checkpoint():
    v = tf.Variable(np.arange(300, dtype=np.float32).reshape(20, 15))
    b = tf.Variable(np.arange(7, dtype=np.int64))
    tf.train.Checkpoint(v=v, b=b).write(os.path.join(WORK, "good"))
    with open(os.path.join(WORK, "good.npz"), "rb") as f:
        return f.read(), v.numpy().copy(), b.numpy().copy()


GOOD, V, B = _good_checkpoint()


def _bounded(load, file_size):
    """Run ``load``; its peak allocation must stay within a bound set by the file's size."""
    tracemalloc.start()
    try:
        return load()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 4 * file_size + 4 * 2**20, (peak, file_size)


# ------------------------------------------------------------------ damaged checkpoints

mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, len(GOOD) - 1), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(0, len(GOOD) - 1), st.just(0)),
    st.tuples(st.just("byte"), st.integers(0, len(GOOD) - 1), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, len(GOOD) - 1), st.integers(0, 255)),
)


def _mutate(data, mutations):
    raw = bytearray(data)
    for kind, at, value in mutations:
        at = min(at, max(len(raw) - 1, 0))
        if not raw:
            break
        if kind == "flip":
            raw[at] ^= 1 << value
        elif kind == "cut":
            del raw[at:]
        elif kind == "byte":
            raw[at] = value
        else:
            raw.insert(at, value)
    return bytes(raw)


@FUZZ
@given(st.lists(mutation, min_size=1, max_size=4))
def test_a_damaged_checkpoint_loads_the_same_numbers_or_is_a_named_error(mutations):
    data = _mutate(GOOD, mutations)
    path = os.path.join(WORK, "bad.npz")
    with open(path, "wb") as f:
        f.write(data)
    v = tf.Variable(np.zeros((20, 15), np.float32))
    b = tf.Variable(np.zeros(7, np.int64))
    try:
        _bounded(lambda: tf.train.Checkpoint(v=v, b=b).restore(os.path.join(WORK, "bad")), len(data))
    except ALLOWED as e:
        assert path in str(e), str(e)
        assert "allow_pickle" not in str(e)
        return
    np.testing.assert_array_equal(v.numpy(), V)       # no damage ever loads other numbers
    np.testing.assert_array_equal(b.numpy(), B)


_leaf = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["v0", "v1", "w00000", ""])
_any = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(
    st.sampled_from(["v", "a"]), inner, max_size=2), max_leaves=4)
metadata = st.one_of(_any, st.fixed_dictionaries({}, optional={
    "keys": st.one_of(_any, st.dictionaries(st.sampled_from(["v", "save_counter", "x"]), _any, max_size=3)),
    "count": _any, "format": _any}))


@settings(FUZZ, max_examples=60)
@given(metadata)
def test_checkpoint_metadata_of_any_shape_is_loaded_or_named(meta):
    path = os.path.join(WORK, "meta.npz")
    np.savez(path, __meta__=np.array(json.dumps(meta)), v0=np.zeros(3, np.float32))
    for load in (lambda: tf.train.Checkpoint(v=tf.Variable(np.ones(3, np.float32))).restore(path),
                 lambda: tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))]
                                             ).load_weights(path)):
        try:
            load()
        except ALLOWED as e:
            assert path in str(e) or "meta.npz" in str(e), str(e)


# ------------------------------------------------------------------ crafted archives

shapes = st.lists(st.integers(0, 2**40), min_size=0, max_size=3).map(tuple)
descrs = st.sampled_from(["<f4", "<f8", "|u1", "<i8", "|O", "<U3", "|V0", "<c16", "<f4x"])


def _member(name, shape, descr, body_len, header_bytes):
    out = io.BytesIO()
    try:
        np.lib.format.write_array_header_1_0(out, {"descr": descr, "fortran_order": False,
                                                   "shape": shape})
        header = out.getvalue()
    except Exception:  # noqa: BLE001 - a descr NumPy will not write: raw bytes then
        header = b"\x93NUMPY\x01\x00" + len(header_bytes).to_bytes(2, "little") + header_bytes
    return name, header + b"\0" * body_len


members = st.lists(st.builds(
    _member, st.sampled_from(["__meta__.npy", "v0.npy", "v1.npy", "x.txt", "a/b.npy"]), shapes,
    descrs, st.integers(0, 4096), st.binary(max_size=64)), min_size=0, max_size=3,
    unique_by=lambda m: m[0])


@FUZZ
@given(members, st.booleans(), st.booleans())
def test_a_crafted_archive_is_read_or_refused_with_memory_bounded(parts, compressed, meta):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED) as z:
        for name, data in parts:
            z.writestr(name, data)
    data = buf.getvalue()
    path = os.path.join(WORK, "crafted.npz")
    with open(path, "wb") as f:
        f.write(data)
    try:
        _bounded(lambda: safe_io.read_npz(path, metadata=meta), len(data))
    except ALLOWED as e:
        assert path in str(e), str(e)


# ------------------------------------------------------------------ state files

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["model_checkpoint_path", "all_model_checkpoint_paths", "x"]), inner,
        max_size=3), max_leaves=8)


@FUZZ
@given(st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=200)))
def test_a_state_file_is_read_or_named_as_damaged(data):
    directory = tempfile.mkdtemp(dir=WORK)
    path = os.path.join(directory, "checkpoint")
    with open(path, "wb") as f:
        f.write(data)
    try:
        state = checkpoint_state.read(path)
    except ALLOWED as e:
        assert path in str(e), str(e)
    else:
        assert isinstance(state, dict)
    try:
        found = tf.train.latest_checkpoint(directory)   # TensorFlow's way: log and go on
        assert found is None or isinstance(found, str)
        tf.train.CheckpointManager(tf.train.Checkpoint(), directory, max_to_keep=2)
    except ValueError as e:
        assert "Invalid checkpoint state" in str(e)
    try:
        tf.keras.utils.SidecarEvaluator(model=None, data=None, checkpoint_dir=directory).start()
    except ALLOWED as e:
        assert directory in str(e), str(e)


# ------------------------------------------------------------------ TF_CONFIG

addresses = st.one_of(st.text(max_size=12), st.integers(-10, 70000).map(lambda p: f"localhost:{p}"),
                      st.integers(), st.none())
clusters = st.dictionaries(st.sampled_from(["chief", "worker", "ps", "evaluator", "workers", "Worker"]),
                           st.one_of(st.lists(addresses, max_size=3), addresses), max_size=3)
tasks = st.fixed_dictionaries({}, optional={"type": st.sampled_from(["worker", "chief", "ps", "master", 3]),
                                            "index": st.one_of(st.integers(-2, 4), st.text(max_size=2),
                                                               st.floats(allow_nan=False))})
configs = st.fixed_dictionaries({}, optional={"cluster": st.one_of(clusters, json_values),
                                              "task": st.one_of(tasks, json_values)})
texts = st.one_of(configs.map(json.dumps), json_values.map(json.dumps), st.text(max_size=40),
                  st.integers(1, 3000).map(lambda n: "[" * n))


@FUZZ
@given(texts, st.sampled_from([None, "MultiWorkerMirroredStrategy"]))
def test_a_tf_config_is_accepted_or_refused_naming_the_field(text, strategy):
    try:
        config = tf_config.load({"TF_CONFIG": text})
        tf_config.validate(config, strategy)
    except (ValueError, TypeError) as e:                 # TypeError: TensorFlow's ClusterSpec's own
        message = str(e)
        assert "TF_CONFIG" in message or "cluster" in message or "task" in message, message
