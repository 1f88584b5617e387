"""Reductions, run, all-reduce and distributed variables: vectors T20-T22, T28 (§2, §5)."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute.values import PerReplica
from sim.engine.errors import InvalidArgumentError


@pytest.fixture
def two():
    return tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])


def _per_replica(strategy, arrays):
    v = PerReplica([tf.constant(a) for a in arrays])
    return strategy.extended._tag_devices(v)


def test_t20_reduce_axis(two):
    v = _per_replica(two, [[0., 1., 2., 3.], [4., 5.]])
    assert float(two.reduce(tf.distribute.ReduceOp.MEAN, v, axis=0)) == 2.5
    assert float(two.reduce(tf.distribute.ReduceOp.SUM, v, axis=0)) == 15.0
    with pytest.raises(InvalidArgumentError):
        two.reduce(tf.distribute.ReduceOp.SUM, v, axis=None)


def test_reduce_axis_errors(two):
    v = _per_replica(two, [[0., 1.], [4., 5.]])
    with pytest.raises(ValueError, match=r"`axis` = 3 out of range for `value` with rank 1"):
        two.reduce("MEAN", v, axis=3)
    with pytest.raises(TypeError, match="Expected `axis` to be an integer, tuple or list not"):
        two.reduce("MEAN", v, axis="x")


def test_t21_replica_ids(two):
    r = two.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                tf.float32))
    assert float(two.reduce("sum", r, None)) == 1.0
    assert float(two.reduce("MEAN", r, None)) == 0.5
    assert [float(x) for x in two.experimental_local_results(r)] == [0.0, 1.0]


def test_t22_non_distributed(two):
    with pytest.raises(ValueError, match=r"A non-DistributedValues value .* cannot be reduced with "
                                         r"the given reduce op ReduceOp.SUM\."):
        two.reduce(tf.distribute.ReduceOp.SUM, tf.constant(3.0), None)
    assert float(two.reduce(tf.distribute.ReduceOp.MEAN, tf.constant(3.0), None)) == 3.0


def test_run_broadcasts_plain_args(two):
    out = two.run(lambda x: x * 2, args=(tf.constant(3.0),))
    assert [float(x) for x in out.values] == [6.0, 6.0]
    assert repr(out).startswith("PerReplica:{\n  0: ")


def test_all_reduce_and_all_gather(two):
    def fn():
        ctx = tf.distribute.get_replica_context()
        rid = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
        return ctx.all_reduce("SUM", rid), ctx.all_reduce("MEAN", rid + 1.0)
    s, m = two.run(fn)
    assert [float(x) for x in s.values] == [1.0, 1.0]
    assert [float(x) for x in m.values] == [1.5, 1.5]

    def gather():
        ctx = tf.distribute.get_replica_context()
        rid = ctx.replica_id_in_sync_group
        data = {"a": tf.constant([0]), "b": tf.constant([[0, 1]])} if int(rid) == 0 else \
            {"a": tf.constant([1]), "b": tf.constant([[2, 3], [4, 5]])}
        return ctx.all_gather(data, axis=0)
    out = two.run(gather)
    for r in range(2):
        assert out["a"].values[r].numpy().tolist() == [0, 1]
        assert out["b"].values[r].numpy().tolist() == [[0, 1], [2, 3], [4, 5]]


def test_t28_mirrored_sum_assign(two):
    with two.scope():
        v = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
    assert type(v).__name__ == "MirroredVariable"
    two.run(lambda: v.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                         tf.float32) + 1.0))
    assert [float(c.numpy()) for c in v.values] == [3.0, 3.0]


def test_t28_sync_on_read():
    four = tf.distribute.MirroredStrategy()
    with four.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    assert type(v).__name__ == "SyncOnReadVariable"
    with four.scope():
        v.assign(10.0)
        assert [float(c.numpy()) for c in v.values] == [2.5] * 4
        assert float(tf.convert_to_tensor(v)) == 10.0
    per = four.run(lambda: tf.identity(v))
    assert [float(x) for x in per.values] == [2.5] * 4


def test_mirrored_none_aggregation_diverges_and_update(two):
    with two.scope():
        v = tf.Variable(1.0)
    two.run(lambda: v.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                         tf.float32)))
    assert [float(c.numpy()) for c in v.values] == [1.0, 2.0]
    with two.scope():
        v.assign(5.0)
    assert [float(c.numpy()) for c in v.values] == [5.0, 5.0]


def test_variable_arg_errors(two):
    with two.scope():
        with pytest.raises(ValueError, match="`NONE` variable synchronization mode is not supported"):
            tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE)


def test_variables_created_in_replica_context_are_shared(two):
    made = []

    def fn():
        made.append(tf.Variable(2.0))
        return made[-1] * 1.0
    two.run(fn)
    assert made[0] is made[1] and type(made[0]).__name__ == "MirroredVariable"


def test_central_storage_aggregating():
    cs = tf.distribute.experimental.CentralStorageStrategy()
    # TF's default parameter device on a multi-GPU machine, as it names it (_LOCAL_CPU)
    assert cs.extended.parameter_devices == ("/device:CPU:0",)
    assert cs.num_replicas_in_sync == 4
    with cs.scope():
        v = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
        w = tf.Variable(0.0)
    assert len(v._values) == 1 and v.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    with pytest.raises(AttributeError, match="'ResourceVariable' object has no attribute 'values'"):
        v.values                                      # as on TF 2.21 (tests/tf_crosscheck)
    cs.run(lambda: v.assign_add(1.0 + tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)))
    assert float(v.numpy()) == 10.0
    with pytest.raises(ValueError, match="You must specify an aggregation method to update a"):
        cs.run(lambda: w.assign_add(1.0))


def test_mirrored_devices_errors():
    with pytest.raises(ValueError, match="Got an empty `devices` list"):
        tf.distribute.MirroredStrategy(devices=[])
    with pytest.raises(AssertionError, match="No duplicates allowed in `devices` argument"):
        tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:0"])


def test_replica_errors_propagate_and_threads_recover(two):
    def bad():
        if int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            raise KeyError("boom")
        return tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
    with pytest.raises(KeyError, match="boom"):
        two.run(bad)
    out = two.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))
    assert [float(x) for x in out.values] == [2.0, 2.0]


def test_cross_replica_assign_on_one_replica_returns_the_variable():
    s = tf.distribute.MirroredStrategy(["/gpu:0"])
    with s.scope():
        v = tf.Variable(np.zeros((2, 3)))
    assert v.assign(np.ones((2, 3))) is v          # was: bool() of a (2, 3) array
    np.testing.assert_array_equal(v.numpy(), np.ones((2, 3)))
