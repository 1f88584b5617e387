"""ParameterServerStrategy: construction errors (§7.1), round-robin placement (T8), partitioning."""
import numpy as np
import pytest

import sim.tf as tf
from tests.ps_cluster import Resolver

PSS = tf.distribute.ParameterServerStrategy


def test_t8_round_robin_counts_every_shard():
    class OnlyB:
        def __call__(self, shape, dtype):
            return [2, 1] if shape[0] == 4 else [1, 1]
    strategy = PSS(Resolver(workers=2, ps=3), variable_partitioner=OnlyB())
    with strategy.scope():
        a = tf.Variable(np.zeros((3, 2), np.float32), name="A")
        b = tf.Variable(np.zeros((4, 2), np.float32), name="B")
        c = tf.Variable(np.zeros((3, 2), np.float32), name="C")
        d = tf.Variable(np.zeros((3, 2), np.float32), name="D")
    ps = "/job:ps/replica:0/task:{}/device:CPU:0".format
    assert a.device == ps(0) and c.device == ps(0) and d.device == ps(1)
    assert [v.device for v in b.variables] == [ps(1), ps(2)]
    assert [v.name for v in b.variables] == ["B/part_0:0", "B/part_1:0"]
    assert isinstance(b, tf.distribute.experimental.ShardedVariable)
    assert strategy.num_replicas_in_sync == 1


def test_min_size_partitioner_shards_and_keeps_small_variables_whole():
    part = tf.distribute.experimental.partitioners.MinSizePartitioner(256 << 10, max_shards=2)
    strategy = PSS(Resolver(workers=1, ps=2), variable_partitioner=part)
    init = np.arange(7 * 16384, dtype=np.float32).reshape(7, 16384)
    with strategy.scope():
        big = tf.Variable(init)
        small = tf.Variable(np.ones((3, 3), np.float32))
        scalar = tf.Variable(1.0)
    assert [v.shape.as_list() for v in big.variables] == [[4, 16384], [3, 16384]]
    np.testing.assert_array_equal(big.variables[1].numpy(), init[4:])
    assert not hasattr(small, "variables") and not hasattr(scalar, "variables")


def test_keras_embedding_is_tracked_as_its_shards():
    part = tf.distribute.experimental.partitioners.FixedShardsPartitioner(2)
    strategy = PSS(Resolver(workers=2, ps=2), variable_partitioner=part)
    with strategy.scope():
        emb = tf.keras.layers.Embedding(input_dim=8, output_dim=16384)
        out = emb(tf.constant([[0, 7]]))
    assert len(emb.weights) == 2
    assert emb.weights[0].shape == (4, 16384) and emb.weights[1].shape == (4, 16384)
    assert {w.device for w in emb.weights} == {"/job:ps/replica:0/task:0/device:CPU:0",
                                               "/job:ps/replica:0/task:1/device:CPU:0"}
    np.testing.assert_array_equal(out.numpy()[0, 1], emb.weights[1].numpy()[3])


def test_optimizer_slots_live_with_their_variable():
    strategy = PSS(Resolver(workers=1, ps=3))
    with strategy.scope():
        v = [tf.Variable(np.ones(2, np.float32)) for _ in range(2)]
        opt = tf.keras.optimizers.Adam(0.1)
        opt.build(v)
    for var in v:
        assert opt.get_slot(var, "m").device == var.device


@pytest.mark.parametrize("cluster,message", [
    ({}, "Cluster spec must be non-empty in `tf.distribute.cluster_resolver.ClusterResolver`."),
    ({"worker": ["a:1"]}, "There must be at least one ps."),
    ({"ps": ["a:1"]}, "There must be at least one worker."),
    ({"worker": ["a:1"], "ps": ["b:1"], "chief": ["c:1", "c:2"]},
     "There must be at most one 'chief' job."),
])
def test_construction_errors(cluster, message):
    with pytest.raises(ValueError) as e:
        PSS(Resolver(cluster=cluster))
    assert str(e.value).startswith(message)


def test_partitioner_errors():
    strategy = PSS(Resolver(), variable_partitioner=lambda shape, dtype: [2, 2])
    with strategy.scope(), pytest.raises(ValueError, match="variable_partitioner must return a "
                                          "list/tuple whose elements are 1 besides the first"):
        tf.Variable(np.zeros((4, 4), np.float32))
    strategy = PSS(Resolver(), variable_partitioner=lambda shape, dtype: [2, 1])
    with strategy.scope(), pytest.raises(ValueError, match="without specifying `initial_value`"):
        tf.Variable(None, shape=(4, 4), dtype=tf.float32)
