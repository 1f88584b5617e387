"""Input splitting between replicas and InputContext: vectors T14-T17, T25 (§3)."""
import pytest

import sim.tf as tf
from sim.distribute.input import choose_split
from sim.distribute.rebatch import batch_sizes_for_worker


def _split(strategy, dataset):
    out = []
    for batch in strategy.experimental_distribute_dataset(dataset):
        out.append([v.numpy().tolist() for v in strategy.experimental_local_results(batch)])
    return out


def _off(ds):
    o = tf.data.Options()
    o.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    return ds.with_options(o)


def _mirrored(n):
    return tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(n)])


def test_t14_batch_sizes_for_worker():
    assert batch_sizes_for_worker(7, 2, 2, 0) == [2, 2, 2, 1]
    assert batch_sizes_for_worker(7, 2, 2, 1) == [2, 1, 2, 2]
    assert batch_sizes_for_worker(10, 1, 4, 0) == [3, 3, 2, 2]
    assert batch_sizes_for_worker(4, 1, 3, 0) == [2, 1, 1]


def test_t15_auto_vs_off():
    s = _mirrored(4)
    ds = tf.data.Dataset.from_tensor_slices(list(range(10))).batch(10)
    assert [len(x) for x in _split(s, ds)[0]] == [3, 3, 3, 1]
    assert [len(x) for x in _split(s, _off(ds))[0]] == [3, 3, 2, 2]


def test_t16_empty_slices():
    assert _split(_mirrored(3), tf.data.Dataset.range(8).batch(4)) == [
        [[0, 1], [2, 3], []], [[4, 5], [6, 7], []]]


def test_t17_partial_and_dummy_batches():
    s = _mirrored(2)
    ds = tf.data.Dataset.range(6).batch(4)
    assert _split(s, ds) == [[[0, 1], [2, 3]], [[4], [5]]]
    assert _split(s, _off(ds)) == [[[0, 1], [2, 3]], [[4, 5], []]]


def test_guide_examples_and_drop_remainder():
    assert _split(_mirrored(4), tf.data.Dataset.range(4).batch(4)) == [[[0], [1], [2], [3]]]
    s = _mirrored(4)
    out = _split(s, tf.data.Dataset.range(10).batch(4, drop_remainder=True))
    assert all(len(x) == 1 for step in out for x in step) and len(out) == 2


def test_structure_and_iterators():
    s = _mirrored(2)
    ds = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(4).batch(4)
    it = iter(s.experimental_distribute_dataset(ds))
    x, y = next(it)
    assert type(x).__name__ == "PerReplica" and x.values[0].shape == (2, 1)
    assert not bool(it.get_next_as_optional().has_value())
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()


def test_policy_table():
    ds = tf.data.Dataset.range(8).batch(4)
    assert choose_split(ds, 2) == "legacy"
    assert choose_split(_off(ds), 2) == "rebatch_v2"
    assert choose_split(ds, 1) == "none"


def test_one_device_and_default_do_not_split():
    ds = tf.data.Dataset.range(6).batch(4)
    one = tf.distribute.OneDeviceStrategy("/gpu:0")
    assert [b.numpy().tolist() for b in one.experimental_distribute_dataset(ds)] == [[0, 1, 2, 3], [4, 5]]
    assert tf.distribute.get_strategy().experimental_distribute_dataset(ds) is ds


def test_per_replica_mode_rejected():
    opts = tf.distribute.InputOptions(
        experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA)
    with pytest.raises(NotImplementedError, match="only supported in"):
        _mirrored(2).experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2), opts)


def test_t25_input_context():
    ctx = tf.distribute.InputContext(2, 1, 4)
    assert ctx.get_per_replica_batch_size(64) == 16
    with pytest.raises(ValueError, match="The `global_batch_size` 10 is not divisible by "
                                         "`num_replicas_in_sync` 4"):
        ctx.get_per_replica_batch_size(10)
    assert str(ctx) == "tf.distribute.InputContext(input pipeline id 1, total: 2)"


def test_distribute_datasets_from_function():
    s = _mirrored(2)
    seen = []

    def dataset_fn(ctx):
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync))
        return tf.data.Dataset.range(6).batch(ctx.get_per_replica_batch_size(4))
    dist = s.distribute_datasets_from_function(dataset_fn)
    out = [[v.numpy().tolist() for v in b.values] for b in dist]
    assert seen == [(1, 0, 2)]
    assert out == [[[0, 1], [2, 3]], [[4, 5], []]]
    vals = s.experimental_distribute_values_from_function(lambda c: c.replica_id_in_sync_group * 10)
    assert vals.values == (0, 10)
