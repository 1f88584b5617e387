"""tf.data semantics: batching, repeat, shuffle determinism, dict slices, options, cardinality."""
import numpy as np
import pytest

import sim.tf as tf


def values(ds):
    return [np.asarray(x).tolist() for x in ds]


def test_batch_and_drop_remainder():
    assert values(tf.data.Dataset.range(7).batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert values(tf.data.Dataset.range(7).batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert tf.data.Dataset.range(7).batch(3).element_spec.shape == [None]
    assert tf.data.Dataset.range(7).batch(3, drop_remainder=True).element_spec.shape == [3]
    assert int(tf.data.Dataset.range(7).batch(3).cardinality()) == 3


def test_repeat_take_skip_shard_unbatch():
    assert values(tf.data.Dataset.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert values(tf.data.Dataset.range(3).repeat().take(5)) == [0, 1, 2, 0, 1]
    assert int(tf.data.Dataset.range(3).repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert values(tf.data.Dataset.range(10).skip(7)) == [7, 8, 9]
    assert values(tf.data.Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    assert values(tf.data.Dataset.range(5).batch(2).unbatch()) == [0, 1, 2, 3, 4]
    assert values(tf.data.Dataset.range(6).filter(lambda x: x % 2 == 0)) == [0, 2, 4]


def test_shuffle_is_a_permutation_deterministic_with_seed():
    a = values(tf.data.Dataset.range(20).shuffle(5, seed=3))
    b = values(tf.data.Dataset.range(20).shuffle(5, seed=3))
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    # buffer semantics: the first output comes from the first buffer_size elements
    assert a[0] < 5


def test_reshuffle_each_iteration():
    ds = tf.data.Dataset.range(10).shuffle(10, seed=1)
    first, second = values(ds), values(ds)
    assert first != second
    fixed = tf.data.Dataset.range(10).shuffle(10, seed=1, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    tf.random.set_seed(5)
    x = values(tf.data.Dataset.range(10).shuffle(10))
    tf.random.set_seed(5)
    assert values(tf.data.Dataset.range(10).shuffle(10)) == x


def test_from_tensor_slices_dicts_tuples_and_map():
    ds = tf.data.Dataset.from_tensor_slices({"x": [[1.0, 2.0], [3.0, 4.0]], "y": [0, 1]})
    first = next(iter(ds))
    assert set(first) == {"x", "y"} and first["x"].dtype == tf.float32 and first["y"].dtype == tf.int32
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(4.0), np.arange(4))).map(lambda a, b: (a * 2, b))
    assert [(float(a), int(b)) for a, b in pairs] == [(0, 0), (2, 1), (4, 2), (6, 3)]
    assert pairs.element_spec[0].dtype == tf.float64
    with pytest.raises(ValueError):
        tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(4)))


def test_from_tensors_and_guide_example():
    ds = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(100).batch(10)
    assert int(ds.cardinality()) == 10 and next(iter(ds))[0].shape == [10, 1]


def test_iterator_end_and_numpy_iterator():
    it = iter(tf.data.Dataset.range(1))
    assert int(it.get_next()) == 0
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    assert list(tf.data.Dataset.range(2).as_numpy_iterator()) == [0, 1]


def test_options_and_autoshard_policy():
    opts = tf.data.Options()
    opts.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    ds = tf.data.Dataset.range(8).batch(4).with_options(opts).prefetch(tf.data.AUTOTUNE)
    assert ds.options().experimental_distribute.auto_shard_policy == tf.data.experimental.AutoShardPolicy.DATA
    assert tf.data.Dataset.range(2).options().experimental_distribute.auto_shard_policy == \
        tf.data.experimental.AutoShardPolicy.AUTO
    assert int(tf.data.experimental.AutoShardPolicy.OFF) == -1


def test_compute_batch_size_and_file_based():
    assert tf.data.Dataset.range(8).batch(4).compute_batch_size() == 4
    assert tf.data.Dataset.range(8).batch(4).map(lambda x: x).prefetch(2).compute_batch_size() == 4
    assert tf.data.Dataset.range(8).batch(4, drop_remainder=True).compute_batch_size() == 4
    assert tf.data.Dataset.range(8).batch(4).unbatch().compute_batch_size() == -1
    assert tf.data.Dataset.range(8).compute_batch_size() == -1
    assert not tf.data.Dataset.range(8).is_file_based()


def test_batch_size_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch_size must be greater than zero"):
        tf.data.Dataset.range(3).batch(0)
