"""File datasets: crc32c, the TFRecord format, TFRecordDataset, TextLineDataset, list_files,
flat_map and interleave."""
import gzip
import os
import struct

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n
from sim.data.masked_crc import mask, masked_crc32c, unmask


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_mask_round_trips_and_matches_tensorflow_constants():
    for value in (0, 1, 0xDEADBEEF, 0xFFFFFFFF):
        assert unmask(mask(value)) == value
    assert mask(0) == 0xA282EAD8
    # CRC-32C("123456789") = 0xE3069283 (RFC 3720's check value), masked as TFRecord stores it.
    assert masked_crc32c(b"123456789") == mask(0xE3069283)


def test_writer_writes_the_tfrecord_framing(tmp_path):
    path = tmp_path / "a.tfrecord"
    with tf.io.TFRecordWriter(str(path)) as w:
        w.write(b"hello")
        w.write("é")
    raw = path.read_bytes()
    length = struct.pack("<Q", 5)
    first = length + struct.pack("<I", masked_crc32c(length)) + b"hello" + struct.pack("<I", masked_crc32c(b"hello"))
    assert raw.startswith(first)
    assert len(raw) == (8 + 4 + 5 + 4) + (8 + 4 + 2 + 4)
    assert raw[len(first):len(first) + 8] == struct.pack("<Q", 2)


def _write(path, records, **kw):
    with tf.io.TFRecordWriter(str(path), **kw) as w:
        for r in records:
            w.write(r)


def test_round_trip_keeps_every_byte(tmp_path):
    records = [b"", b"a", b"\x00\x01\x00", bytes(range(256)), b"end\x00\x00"]
    _write(tmp_path / "r.tfrecord", records)
    ds = tf.data.TFRecordDataset(str(tmp_path / "r.tfrecord"))
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert list(ds.as_numpy_iterator()) == records


@pytest.mark.parametrize("kind", ["GZIP", "ZLIB"])
def test_compressed_files(tmp_path, kind):
    _write(tmp_path / "c.tfrecord", [b"x" * 100, b"y"], options=kind)
    raw = (tmp_path / "c.tfrecord").read_bytes()
    assert len(raw) < 100
    if kind == "GZIP":
        assert gzip.decompress(raw)[12:112] == b"x" * 100
    ds = tf.data.TFRecordDataset([str(tmp_path / "c.tfrecord")], compression_type=kind)
    assert list(ds.as_numpy_iterator()) == [b"x" * 100, b"y"]


def test_a_damaged_record_is_data_loss(tmp_path):
    _write(tmp_path / "d.tfrecord", [b"good", b"data"])
    raw = bytearray((tmp_path / "d.tfrecord").read_bytes())
    raw[12] ^= 0xFF                        # first data byte
    (tmp_path / "d.tfrecord").write_bytes(bytes(raw))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 0"):
        list(tf.data.TFRecordDataset(str(tmp_path / "d.tfrecord")))
    raw[12] ^= 0xFF
    (tmp_path / "d.tfrecord").write_bytes(bytes(raw[:30]))
    with pytest.raises(tf.errors.DataLossError, match="truncated record at"):
        list(tf.data.TFRecordDataset(str(tmp_path / "d.tfrecord")))


def test_missing_file_is_not_found(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        list(tf.data.TFRecordDataset(str(tmp_path / "nope.tfrecord")))


def test_files_are_read_in_order_or_interleaved(tmp_path):
    names = []
    for f in range(3):
        names.append(str(tmp_path / f"f{f}.tfrecord"))
        _write(names[-1], [f"{f}{i}".encode() for i in range(f + 2)])
    seq = [x.decode() for x in tf.data.TFRecordDataset(names).as_numpy_iterator()]
    assert seq == ["00", "01", "10", "11", "12", "20", "21", "22", "23"]
    par = [x.decode() for x in tf.data.TFRecordDataset(names, num_parallel_reads=2).as_numpy_iterator()]
    # two files open at a time, one record each in turn; when file 0 ends the turn passes to
    # file 1, then file 2 opens in file 0's slot (TensorFlow's interleave order)
    assert par == ["00", "10", "01", "11", "12", "20", "21", "22", "23"]


def test_text_lines(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"one\r\ntwo\n\nfour")
    (tmp_path / "b.txt").write_bytes(b"")
    (tmp_path / "c.txt").write_bytes(b"x\n")
    ds = tf.data.TextLineDataset([str(tmp_path / n) for n in ("a.txt", "b.txt", "c.txt")])
    assert list(ds.as_numpy_iterator()) == [b"one", b"two", b"", b"four", b"x"]


def test_list_files_sorted_then_shuffled_with_its_seed(tmp_path):
    for n in ("c", "a", "b", "d"):
        (tmp_path / f"{n}.rec").write_bytes(b"")
    (tmp_path / "other.txt").write_bytes(b"")
    pattern = str(tmp_path / "*.rec")
    plain = [os.path.basename(x.decode()) for x in tf.data.Dataset.list_files(pattern, shuffle=False).as_numpy_iterator()]
    assert plain == ["a.rec", "b.rec", "c.rec", "d.rec"]
    a = list(tf.data.Dataset.list_files(pattern, seed=7).as_numpy_iterator())
    b = list(tf.data.Dataset.list_files(pattern, seed=7).as_numpy_iterator())
    assert a == b and sorted(os.path.basename(x.decode()) for x in a) == plain
    orders = {tuple(tf.data.Dataset.list_files(pattern, seed=s).as_numpy_iterator()) for s in range(8)}
    assert len(orders) > 1
    both = tf.data.Dataset.list_files([str(tmp_path / "d.rec"), str(tmp_path / "a*")], shuffle=False)
    assert [os.path.basename(x.decode()) for x in both.as_numpy_iterator()] == ["a.rec", "d.rec"]


def test_list_files_without_a_match(tmp_path):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.data.Dataset.list_files(str(tmp_path / "*.none"))
    assert "No files matched pattern: " in str(e.value)
    i18n.set_language("zh")
    with pytest.raises(tf.errors.InvalidArgumentError, match="没有文件与"):
        tf.data.Dataset.list_files(str(tmp_path / "*.none"))


def test_interleave_follows_tensorflows_documented_order():
    # The tf.data.Dataset.interleave docstring: range(1, 6), each x repeated 6 times,
    # cycle_length=2, block_length=4.
    ds = tf.data.Dataset.range(1, 6).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4)
    assert [int(v) for v in ds.as_numpy_iterator()] == [
        1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5]
    flat = tf.data.Dataset.range(4).flat_map(lambda x: tf.data.Dataset.range(x))
    assert [int(v) for v in flat.as_numpy_iterator()] == [0, 0, 1, 0, 1, 2]


def test_interleave_of_readers_is_file_based(tmp_path):
    for f in range(2):
        _write(tmp_path / f"f{f}.tfrecord", [b"r"])
    files = tf.data.Dataset.list_files(str(tmp_path / "*.tfrecord"), shuffle=False)
    ds = files.interleave(tf.data.TFRecordDataset, cycle_length=2)
    assert ds.is_file_based() and ds.element_spec == tf.TensorSpec([], tf.string)
    assert not tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(x)).is_file_based()


@pytest.mark.parametrize("bad, error", [(lambda x: x + 1, TypeError)])
def test_interleave_function_must_return_a_dataset(bad, error):
    with pytest.raises(error, match="must return a `Dataset` object"):
        list(tf.data.Dataset.range(2).interleave(bad, cycle_length=1))


def test_readers_refuse_numbers_and_bad_compression():
    with pytest.raises(TypeError, match="`filenames` must be a `tf.data.Dataset` of scalar `tf.string`"):
        tf.data.TFRecordDataset(tf.data.Dataset.range(3))
    with pytest.raises(TypeError, match="`filenames` must be a `tf.Tensor` of `tf.string` elements"):
        tf.data.TextLineDataset([1, 2])
    with pytest.raises(ValueError, match="Unsupported compression type: BZ2"):
        tf.data.TFRecordDataset("x.tfrecord", compression_type="BZ2")


def test_a_record_becomes_a_tensor_a_map_can_decode(tmp_path):
    rows = np.arange(12, dtype=np.float32).reshape(3, 4)
    _write(tmp_path / "x.tfrecord", [r.tobytes() for r in rows])
    ds = tf.data.TFRecordDataset(str(tmp_path / "x.tfrecord"))
    back = np.stack([np.frombuffer(b, np.float32) for b in ds.as_numpy_iterator()])
    np.testing.assert_array_equal(back, rows)


def test_decode_raw_and_bytes_with_trailing_nuls():
    raw = np.int64(7).tobytes()                   # b"\x07" then seven NUL bytes
    assert tf.constant(raw).numpy() == raw
    assert tf.constant([raw, b"x\x00"]).numpy().tolist() == [raw, b"x\x00"]
    assert tf.io.decode_raw(tf.constant(raw), tf.int64).numpy().tolist() == [7]
    both = tf.io.decode_raw(tf.constant([np.float32([1, 2]).tobytes(), np.float32([3, 4]).tobytes()]), tf.float32)
    assert both.shape == (2, 2) and both.numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not a multiple of 8"):
        tf.io.decode_raw(tf.constant(b"abc"), tf.int64)
