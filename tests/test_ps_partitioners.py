"""Partitioners and the "div" row split: test vectors T1-T7 (tf_distribute_semantics.md §7.2)."""
import pytest

import sim.tf as tf
from sim import i18n
from sim.distribute.ps.sharded_variable import div_row_sizes, row_offsets

P = tf.distribute.experimental.partitioners


def rows(partitioner, shape, dtype=tf.float32):
    parts = partitioner(shape=tf.TensorShape(shape), dtype=dtype)
    return parts, div_row_sizes(shape[0], parts[0])


def test_t1_min_size_two_shards():
    parts, sizes = rows(P.MinSizePartitioner(min_shard_bytes=256 << 10, max_shards=2), (7, 16384))
    assert parts == [2, 1]
    assert sizes == [4, 3] and row_offsets(sizes) == [0, 4, 7]


def test_t2_min_size_capped_by_max_shards():
    parts, sizes = rows(P.MinSizePartitioner(256 << 10, max_shards=4), (1024, 1024))
    assert parts == [4, 1] and sizes == [256] * 4


def test_t3_min_size_small_and_default():
    assert P.MinSizePartitioner(256 << 10, max_shards=10)(tf.TensorShape((100, 10)), tf.float32) == [1, 1]
    assert P.MinSizePartitioner()(tf.TensorShape((100000, 1000)), tf.float32) == [1, 1]


def test_t4_min_size_strings():
    parts, sizes = rows(P.MinSizePartitioner(min_shard_bytes=64, max_shards=8, bytes_per_string=16),
                        (10,), tf.string)
    assert parts == [3] and sizes == [4, 3, 3]


def test_t5_max_size_docstring():
    shape = tf.TensorShape((6, 1))
    assert P.MaxSizePartitioner(max_shard_bytes=4)(shape, tf.float32) == [6, 1]
    assert P.MaxSizePartitioner(4, max_shards=2)(shape, tf.float32) == [2, 1]
    assert P.MaxSizePartitioner(1024)(shape, tf.float32) == [1, 1]


def test_t6_max_size():
    parts, sizes = rows(P.MaxSizePartitioner(64 << 10), (1000, 64), tf.float64)
    assert parts == [8, 1] and sizes == [125] * 8
    parts, sizes = rows(P.MaxSizePartitioner(100, max_shards=3), (10, 5))
    assert parts == [2, 1] and sizes == [5, 5]
    parts, sizes = rows(P.MaxSizePartitioner(30), (10, 5))
    assert parts == [10, 1] and sizes == [1] * 10


def test_t7_fixed_shards():
    parts, sizes = rows(P.FixedShardsPartitioner(5), (13, 2))
    assert parts == [5, 1] and sizes == [3, 3, 3, 2, 2]
    parts, sizes = rows(P.FixedShardsPartitioner(4), (3, 8))
    assert parts == [3, 1] and sizes == [1, 1, 1]
    assert row_offsets(div_row_sizes(10, 4)) == [0, 3, 6, 8, 10]


@pytest.mark.parametrize("make,message", [
    (lambda: P.MinSizePartitioner(min_shard_bytes=0), "Argument `min_shard_bytes` must be positive. Received: 0"),
    (lambda: P.MinSizePartitioner(max_shards=0), "Argument `max_shards` must be positive. Received: 0"),
    (lambda: P.MinSizePartitioner(bytes_per_string=0), "Argument `bytes_per_string` must be positive. Received: 0"),
    (lambda: P.MaxSizePartitioner(0), "Argument `max_shard_bytes` must be positive. Received 0"),
    (lambda: P.MaxSizePartitioner(8, max_shards=-1), "Argument `max_shards` must be positive. Received -1"),
])
def test_bad_arguments_raise_tensorflows_error(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert str(e.value).startswith(message)


def test_axis_beyond_rank_and_course_language():
    with pytest.raises(ValueError, match="Can not partition variable along axis 1 when shape is only"):
        P.MinSizePartitioner(max_shards=2)(tf.TensorShape((4,)), tf.float32, axis=1)
    old = i18n.get_language()
    try:
        i18n.set_language("zh")
        with pytest.raises(ValueError) as e:
            P.MinSizePartitioner(max_shards=0)
        assert str(e.value).startswith("Argument `max_shards` must be positive.")
        assert "必须至少为 1" in str(e.value)
    finally:
        i18n.set_language(old)
