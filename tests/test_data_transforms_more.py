"""padded_batch, window, flat_map, interleave, scan, group_by_window, bucket_by_sequence_length:
the examples in TensorFlow's API documentation, with the outputs it prints."""
import numpy as np
import pytest

import sim.tf as tf


def _lists(ds):
    return [np.asarray(e).tolist() for e in ds.as_numpy_iterator()]


def _fill_range():
    return tf.data.Dataset.range(1, 5, output_type=tf.int32).map(lambda x: tf.fill([x], x))


def test_padded_batch_to_longest_in_batch():
    assert _lists(_fill_range().padded_batch(2)) == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]


def test_padded_batch_to_fixed_shape_and_value():
    assert _lists(_fill_range().padded_batch(2, padded_shapes=5)) == [
        [[1, 0, 0, 0, 0], [2, 2, 0, 0, 0]], [[3, 3, 3, 0, 0], [4, 4, 4, 4, 0]]]
    assert _lists(_fill_range().padded_batch(2, padded_shapes=5, padding_values=-1)) == [
        [[1, -1, -1, -1, -1], [2, 2, -1, -1, -1]], [[3, 3, 3, -1, -1], [4, 4, 4, 4, -1]]]


def test_padded_batch_per_component_shapes_and_values():
    elements = [([1, 2, 3], [10]), ([4, 5], [11, 12])]
    ds = tf.data.Dataset.from_generator(lambda: iter(elements), (tf.int32, tf.int32))
    ds = ds.padded_batch(2, padded_shapes=([4], [None]), padding_values=(-1, 100))
    (a, b), = list(ds.as_numpy_iterator())
    assert a.tolist() == [[1, 2, 3, -1], [4, 5, -1, -1]] and a.dtype == np.int32
    assert b.tolist() == [[10, 100], [11, 12]]
    assert ds.element_spec[0].shape.as_list() == [None, 4]
    assert ds.element_spec[1].shape.as_list() == [None, None]


def test_padded_batch_one_value_for_every_component():
    ds = tf.data.Dataset.zip((_fill_range(), _fill_range())).padded_batch(2, padding_values=-1)
    first = next(ds.as_numpy_iterator())
    assert [x.tolist() for x in first] == [[[1, -1], [2, 2]]] * 2


def test_padded_batch_too_small_and_drop_remainder():
    with pytest.raises(tf.errors.DataLossError, match="smaller size"):  # TensorFlow's class
        list(_fill_range().padded_batch(2, padded_shapes=3))
    ds = _fill_range().padded_batch(3, drop_remainder=True)
    assert ds.element_spec.shape.as_list() == [3, None] and len(_lists(ds)) == 1
    assert len(_fill_range().padded_batch(3)) == 2


def _windows(ds):
    return [list(w.as_numpy_iterator()) for w in ds]


def test_window_documented_examples():
    r = tf.data.Dataset.range(7)
    assert _windows(r.window(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert _windows(r.window(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert _windows(r.window(3, 2, drop_remainder=True)) == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
    assert _windows(r.window(3, 1, 2, drop_remainder=True)) == [[0, 2, 4], [1, 3, 5], [2, 4, 6]]
    assert _windows(r.window(3, 2)) == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
    assert len(r.window(3, 2, drop_remainder=True)) == 3 and len(r.window(3, 2)) == 4
    assert isinstance(r.window(3).element_spec, tf.data.DatasetSpec)


def test_window_of_tuples_and_dicts_gives_nests_of_datasets():
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).window(2)
    got = [(list(x.as_numpy_iterator()), list(y.as_numpy_iterator())) for x, y in ds]
    assert got == [([1, 2], [6, 7]), ([3, 4], [8, 9]), ([5], [10])]
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [4, 5, 6]}).window(2)
    got = [{k: list(v.as_numpy_iterator()) for k, v in w.items()} for w in ds]
    assert got == [{"a": [1, 2], "b": [4, 5]}, {"a": [3], "b": [6]}]


def test_window_then_flat_map_batch_is_the_time_series_recipe():
    ds = tf.data.Dataset.range(6).window(3, shift=1, drop_remainder=True)
    ds = ds.flat_map(lambda w: w.batch(3))
    assert _lists(ds) == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]
    assert ds.element_spec.shape.as_list() == [None]


def test_flat_map_documented_example_and_type_error():
    ds = tf.data.Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    assert _lists(ds.flat_map(tf.data.Dataset.from_tensor_slices)) == list(range(1, 10))
    with pytest.raises(TypeError, match="must return a `Dataset`"):
        list(ds.flat_map(lambda x: x))


def test_interleave_documented_order():
    ds = tf.data.Dataset.range(1, 6).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4)
    assert _lists(ds) == [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4,
                          5, 5, 5, 5, 5, 5]


def test_interleave_unequal_lengths_refills_a_slot_on_its_next_turn():
    ds = tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2)
    # slot0: 1 | slot1: 2 | slot0 ends, turn passes | slot1: 2 | slot0 opens 3 ...
    assert _lists(ds) == [1, 2, 2, 3, 3, 3]


def test_scan_running_sum():
    ds = tf.data.Dataset.range(10).scan(tf.constant(0, dtype=tf.int64),
                                        lambda state, i: (state + i, state + i))
    assert _lists(ds) == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45]
    assert len(ds) == 10


def test_scan_state_dtype_must_not_change():
    ds = tf.data.Dataset.range(3).scan(tf.constant(0, dtype=tf.int64),
                                       lambda s, i: (tf.cast(s + i, tf.float32), i))
    with pytest.raises(TypeError, match="must match the initial state"):
        list(ds)


def test_group_by_window_documented_example():
    ds = tf.data.Dataset.range(10).group_by_window(
        key_func=lambda x: x % 2, reduce_func=lambda key, d: d.batch(5), window_size=5)
    assert _lists(ds) == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]


def test_group_by_window_flushes_partial_groups_in_key_order():
    ds = tf.data.Dataset.range(7).group_by_window(
        key_func=lambda x: 2 - x % 3, reduce_func=lambda key, d: d.batch(10), window_size=2)
    # keys: 0->2, 1->1, 2->0, 3->2 (full: [0, 3]), 4->1 (full: [1, 4]), 5->0 ([2, 5]), 6->2
    assert _lists(ds) == [[0, 3], [1, 4], [2, 5], [6]]
    with pytest.raises(ValueError, match="window_size"):
        tf.data.Dataset.range(3).group_by_window(lambda x: x, lambda k, d: d)


def test_bucket_by_sequence_length_documented_example():
    elements = [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16, 19, 20],
                [21, 22]]
    ds = tf.data.Dataset.from_generator(lambda: elements, tf.int64, output_shapes=[None])
    ds = ds.bucket_by_sequence_length(element_length_func=lambda elem: tf.shape(elem)[0],
                                      bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2])
    assert _lists(ds) == [[[1, 2, 3, 4], [5, 6, 7, 0]],
                          [[7, 8, 9, 10, 11, 0], [13, 14, 15, 16, 19, 20]],
                          [[0, 0], [21, 22]]]
    with pytest.raises(ValueError, match="bucket_batch_sizes"):
        ds.bucket_by_sequence_length(lambda e: tf.shape(e)[0], [3, 5], [2, 2])
