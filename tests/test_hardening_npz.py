"""Issue 24, items 3, 4 and 6: every .npz loading path turns a missing array, a damaged or crafted
header, a compressed bomb or a file that is not a regular file into TensorFlow's DataLossError
naming the file, with memory bounded by the file's size (sim/storage/safe_io.py); SIM_SAME_START's
weights loader goes through the same reader."""
import io
import json
import os
import signal
import tracemalloc
import zipfile

import numpy as np
import pytest

import sim.tf as tf
from sim.storage import safe_io
from sim.launch import same_start

DL = tf.errors.DataLossError


def _holder_checkpoint(tmp_path, name="ck", size=6):
    v = tf.Variable(np.arange(size, dtype=np.float32))
    tf.train.Checkpoint(v=v).write(str(tmp_path / name))
    return v, tmp_path / (name + ".npz")


def _loaders(tmp_path, file):
    """Every .npz loading path, each reading ``file`` (copied where it looks)."""
    data = file.read_bytes()
    (tmp_path / "bad.npz").write_bytes(data)
    model = lambda: tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    return {
        "Checkpoint.restore": lambda: tf.train.Checkpoint(v=tf.Variable(np.zeros(6, np.float32))
                                                          ).restore(str(tmp_path / "bad")),
        "load_weights": lambda: model().load_weights(str(tmp_path / "bad.npz")),
        "read_npz": lambda: safe_io.read_npz(str(tmp_path / "bad.npz")),
        "read_npz(metadata=False)": lambda: safe_io.read_npz(str(tmp_path / "bad.npz"),
                                                             metadata=False),
    }


def _assert_data_loss(tmp_path, file, words):
    for api, load in _loaders(tmp_path, file).items():
        if api == "read_npz(metadata=False)" and "metadata" in words:
            continue
        with pytest.raises(DL) as info:
            load()
        text = str(info.value)
        assert str(tmp_path / "bad.npz") in text, (api, text)
        assert words in text, (api, text)
        assert "allow_pickle" not in text


# ---------------------------------------------------------------- item 3: an array the file lacks

def test_a_checkpoint_whose_metadata_names_a_missing_array_is_data_loss(tmp_path):
    file = tmp_path / "foreign.npz"
    np.savez(file, __meta__=np.array(json.dumps({"format": "sim.tf.train.Checkpoint/2",
                                                 "keys": {"v": "v0"}})))
    with pytest.raises(DL, match="names the array v0, which the file does not contain"):
        tf.train.Checkpoint(v=tf.Variable(np.zeros(3, np.float32))).restore(str(tmp_path / "foreign"))


def test_weights_whose_metadata_count_more_arrays_than_the_file_holds(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    np.savez(tmp_path / "w.npz", __meta__=np.array(json.dumps({"count": 2})),
             w00000=np.zeros((2, 1), np.float32))
    with pytest.raises(DL, match="w00001"):
        model.load_weights(str(tmp_path / "w.npz"))


def test_a_flipped_name_in_the_zip_directory_is_data_loss(tmp_path):
    _, file = _holder_checkpoint(tmp_path)
    raw = bytearray(file.read_bytes())
    raw[raw.rindex(b"v0.npy") + 1] ^= 0x01           # central directory: v0.npy -> v1.npy
    file.write_bytes(bytes(raw))
    _assert_data_loss(tmp_path, file, "is not a usable checkpoint")


# ---------------------------------------------------------------- item 6: crafted headers, bombs

def test_a_flipped_header_byte_is_data_loss_not_a_tokenize_error(tmp_path):
    _, file = _holder_checkpoint(tmp_path, size=1200)    # the header is parsed before the CRC
    raw = bytearray(file.read_bytes())
    raw[raw.index(b"'descr': ") + len(b"'descr':")] ^= 0x08      # ' ' -> '('
    file.write_bytes(bytes(raw))
    _assert_data_loss(tmp_path, file, "the header of v0.npy cannot be read")


def _crafted(members, compression=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def _npy_header(shape, descr="<f4"):
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": descr, "fortran_order": False,
                                               "shape": shape})
    return out.getvalue()


def test_a_header_declaring_terabytes_is_refused_before_allocating(tmp_path):
    meta = io.BytesIO()
    np.save(meta, np.array(json.dumps({"keys": {"v": "v0"}})))
    file = tmp_path / "huge.npz"
    file.write_bytes(_crafted({"__meta__.npy": meta.getvalue(),
                               "v0.npy": _npy_header((900_000_000_000,)) + b"\0" * 24}))
    tracemalloc.start()
    _assert_data_loss(tmp_path, file, "declares 3,600,000,000,000 bytes of data")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10 * 2**20, peak


def test_a_compressed_bomb_is_refused_before_it_is_unpacked(tmp_path):
    n = 2**26                                              # 256 MB of float32 zeros, ~250 kB zipped
    payload = _npy_header((n,)) + bytes(4 * n)
    file = tmp_path / "bomb.npz"
    file.write_bytes(_crafted({"v0.npy": payload}, zipfile.ZIP_DEFLATED))
    del payload
    assert os.path.getsize(file) < 2**20
    tracemalloc.start()
    _assert_data_loss(tmp_path, file, "v0.npy is compressed")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10 * 2**20, peak


def test_a_foreign_zip_member_and_object_arrays_are_named(tmp_path):
    file = tmp_path / "foreign.npz"
    file.write_bytes(_crafted({"notes.txt": b"hello"}))
    _assert_data_loss(tmp_path, file, "it holds notes.txt, which is not a NumPy array")
    file.write_bytes(_crafted({"v0.npy": _npy_header((1,), "|O") + b"\x80\x04N."}))
    _assert_data_loss(tmp_path, file, "pickled Python objects")


@pytest.fixture
def no_hang():
    """A regression would block on the FIFO forever: SIGALRM ends the test run instead."""
    signal.alarm(30)
    yield
    signal.alarm(0)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_or_a_device_is_refused_without_reading_it(tmp_path, no_hang):
    fifo = tmp_path / "fifo.npz"
    os.mkfifo(fifo)
    with pytest.raises(DL, match="not a regular file"):
        safe_io.read_npz(str(fifo))                       # would block forever if opened
    with pytest.raises(DL, match="not a regular file"):
        safe_io.read_npz("/dev/zero")


def test_good_files_still_load_fortran_order_and_empty_arrays_included(tmp_path):
    arrays = {"a": np.asfortranarray(np.arange(12.0).reshape(3, 4)), "b": np.zeros((0, 5)),
              "c": np.array("text")}
    np.savez(tmp_path / "ok.npz", __meta__=np.array("{}"), **arrays)
    meta, got = safe_io.read_npz(str(tmp_path / "ok.npz"))
    assert meta == {} and sorted(got) == ["a", "b", "c"]
    for k, v in arrays.items():
        np.testing.assert_array_equal(got[k], v)
        assert got[k].dtype == v.dtype
    got["a"][0, 0] = 5.0                                  # writable, as np.load's arrays are


# ---------------------------------------------------------------- item 4: SIM_SAME_START's loader

class _Model:
    def __init__(self):
        self.weights = [np.zeros((2, 3), np.float32), np.zeros(3, np.float32)]

    def get_weights(self):
        return list(self.weights)

    def set_weights(self, weights):
        self.weights = list(weights)


@pytest.mark.parametrize("damage, words", [
    (b"\x80\x04\x95" + b"\0" * 20, "pickled Python objects"),
    (b"", "the file is empty"),
    (b"PK\x03\x04" + b"\0" * 30, "the archive is damaged"),
    (b'{"w000": [1, 2]}', "not an .npz archive"),
])
def test_same_start_weights_go_through_the_safe_reader(tmp_path, damage, words):
    weights = tmp_path / "weights.npz"
    weights.write_bytes(damage)
    with pytest.raises(DL) as info:
        same_start._start(_Model(), str(weights))
    assert str(weights) in str(info.value) and words in str(info.value)
    assert "allow_pickle" not in str(info.value)
    assert "delete it and the next run records the start again" in str(info.value)


def test_same_start_still_loads_a_plain_savez_file(tmp_path):
    weights = tmp_path / "weights.npz"
    np.savez(weights, w000=np.ones((2, 3), np.float32), w001=np.full(3, 2, np.float32))
    model = _Model()
    same_start._start(model, str(weights))
    np.testing.assert_array_equal(model.weights[1], [2, 2, 2])


def test_an_unreadable_checkpoint_is_permission_denied(tmp_path, monkeypatch):
    file = tmp_path / "ck.npz"
    np.savez(file, __meta__=np.array("{}"))

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(file))
    monkeypatch.setattr(safe_io, "open", denied, raising=False)
    with pytest.raises(tf.errors.PermissionDeniedError, match="permission denied. Give your user"):
        safe_io.read_npz(str(file))
