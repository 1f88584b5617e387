"""Dataset.choose_from_datasets and sample_from_datasets (sim/data/transforms/choosing.py):
TensorFlow's documented examples and errors, and the sampling weights."""
import numpy as np
import pytest

import sim.tf as tf

D = tf.data.Dataset


def _list(ds):
    return [np.asarray(x.numpy()).tolist() for x in ds]


def test_choose_from_datasets_documented_example():
    datasets = [D.from_tensors(s).repeat() for s in ["foo", "bar", "baz"]]
    result = D.choose_from_datasets(datasets, D.range(3).repeat(3))
    assert _list(result) == [b"foo", b"bar", b"baz"] * 3
    assert int(result.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert tf.data.experimental.choose_from_datasets(datasets, D.range(2)).element_spec == \
        tf.TensorSpec([], tf.string)


def test_choose_stops_on_an_empty_dataset_or_skips_it():
    a, b = D.range(0, 3), D.range(100, 105)
    choices = D.from_tensor_slices(tf.constant([0, 0, 0, 0, 1, 1], tf.int64))
    assert _list(D.choose_from_datasets([a, b], choices)) == [0, 1, 2]
    assert _list(D.choose_from_datasets([a, b], choices, stop_on_empty_dataset=False)) == \
        [0, 1, 2, 100, 101]


def test_choose_errors_name_the_mistake():
    a, b = D.range(3), D.range(100, 103)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Selector index out of range: 2 >= 2"):
        _list(D.choose_from_datasets([a, b], D.from_tensor_slices(tf.constant([0, 2], tf.int64))))
    with pytest.raises(TypeError, match="must be scalar `tf.int64` tensors but are TensorSpec"):
        D.choose_from_datasets([a, b], D.from_tensor_slices(tf.constant([0, 1], tf.int32)))
    with pytest.raises(ValueError, match="`datasets` should not be empty"):
        D.choose_from_datasets([], D.range(2))
    with pytest.raises(TypeError, match="must have compatible element specs"):
        D.choose_from_datasets([a, D.from_tensors("x")], D.range(2))


def test_compatible_shapes_merge_to_the_most_specific_spec():
    ds = D.choose_from_datasets([D.from_tensors([1, 2]), D.from_tensors([1, 2, 3])], D.range(2))
    assert ds.element_spec.shape.as_list() == [None]
    assert _list(ds) == [[1, 2], [1, 2, 3]]


def test_sample_from_datasets_takes_every_element_once_and_follows_the_weights():
    tf.random.set_seed(3)
    mixed = D.sample_from_datasets([D.range(0, 50), D.range(100, 150)], weights=[0.5, 0.5], seed=7)
    out = _list(mixed)
    assert sorted(out) == list(range(50)) + list(range(100, 150))
    assert [x for x in out if x < 100] == list(range(50))      # each dataset keeps its order
    again = D.sample_from_datasets([D.range(0, 50), D.range(100, 150)], weights=[0.5, 0.5], seed=7)
    assert _list(again) == out                                 # seeded: repeatable
    ones, zeros = D.from_tensors(1).repeat(), D.from_tensors(0).repeat()
    draws = np.array(_list(D.sample_from_datasets([ones, zeros], weights=[3.0, 1.0], seed=1).take(4000)))
    # binomial(4000, 0.75): mean 3000, standard deviation 27
    assert abs(draws.sum() - 3000) < 4 * 27


def test_sample_from_datasets_as_tensorflow_simplifies_and_stops():
    a = D.range(3)
    assert D.sample_from_datasets([a, D.range(100, 103)], weights=[1.0, 0.0]) is a
    assert D.sample_from_datasets([a, D.range(100, 103)], weights=[0.5, -1.0]) is a
    assert D.sample_from_datasets([a]) is a
    stopped = _list(D.sample_from_datasets([D.range(3), D.range(100, 200)], seed=1,
                                           stop_on_empty_dataset=True))
    assert [x for x in stopped if x < 100] == [0, 1, 2] and len(stopped) < 103
    with pytest.raises(ValueError, match=r"`len\(weights\)=1` vs. `len\(datasets\)=2`"):
        D.sample_from_datasets([a, a], weights=[0.5])
    with pytest.raises(ValueError, match="`datasets` should not be empty"):
        tf.data.experimental.sample_from_datasets([])
