"""ShardedVariable acts as one variable: read, assign, gradients, embedding lookup, checkpoint."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute.ps.sharded_variable import ShardedVariable


def make(rows=10, cols=3, sizes=(3, 3, 2, 2)):
    full = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    offs = np.cumsum((0,) + sizes)
    shards = [tf.Variable(full[offs[i]:offs[i + 1]], name=f"v/part_{i}") for i in range(len(sizes))]
    return ShardedVariable(shards, name="v"), full


def test_reads_as_the_concatenated_value():
    v, full = make()
    assert v.shape == (10, 3) and v.dtype == tf.float32 and len(v.variables) == 4
    np.testing.assert_array_equal(tf.convert_to_tensor(v).numpy(), full)
    np.testing.assert_array_equal(v[4:7].numpy(), full[4:7])
    np.testing.assert_array_equal((v * 2.0).numpy(), full * 2)
    assert [s.shape[0] for s in v] == [3, 3, 2, 2]


def test_assign_splits_by_rows():
    v, full = make()
    v.assign(-full)
    np.testing.assert_array_equal(v.variables[2].numpy(), -full[6:8])
    v.assign_add(np.ones_like(full))
    v.assign_sub(2 * np.ones_like(full))
    np.testing.assert_array_equal(v.numpy(), -full - 1)


def test_gradients_reach_each_shard():
    v, full = make()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.convert_to_tensor(v) * full)
    grads = tape.gradient(loss, v.variables)
    np.testing.assert_array_equal(np.concatenate([g.numpy() for g in grads]), full)


def test_embedding_lookup_across_shards_with_gradients():
    v, full = make()
    ids = tf.constant([[9, 0], [3, 3], [7, 5]])
    with tf.GradientTape() as tape:
        rows = tf.nn.embedding_lookup(v, ids)
        loss = tf.reduce_sum(rows)
    np.testing.assert_array_equal(rows.numpy(), full[np.array([[9, 0], [3, 3], [7, 5]])])
    grads = np.concatenate([g.numpy() for g in tape.gradient(loss, v.variables)])
    counts = np.bincount([9, 0, 3, 3, 7, 5], minlength=10)[:, None] * np.ones((1, 3))
    np.testing.assert_array_equal(grads, counts)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.nn.embedding_lookup(v, tf.constant([10]))


def test_checkpoint_saves_the_whole_and_restores_shards(tmp_path):
    v, full = make()
    path = tf.train.Checkpoint(table=v).save(str(tmp_path / "ckpt"))
    saved = np.load(path + ".npz", allow_pickle=False)
    assert any(a.shape == (10, 3) for a in saved.values())
    v.assign(np.zeros_like(full))
    tf.train.Checkpoint(table=v).restore(path)
    np.testing.assert_array_equal(v.numpy(), full)
    np.testing.assert_array_equal(v.variables[1].numpy(), full[3:6])


def test_bad_components():
    with pytest.raises(TypeError, match="non-empty list"):
        ShardedVariable([])
    with pytest.raises(ValueError, match="same dtype"):
        ShardedVariable([tf.Variable([1.0]), tf.Variable([1], dtype=tf.int32)])
    with pytest.raises(ValueError, match="same shapes except for the first axis"):
        ShardedVariable([tf.Variable([[1.0]]), tf.Variable([[1.0, 2.0]])])
