"""Contexts, the default strategy and OneDeviceStrategy (tf_distribute_semantics.md §1, §8.3-8.4)."""
import copy

import numpy as np
import pytest

import sim.tf.distribute as dist
from sim.distribute.default import _DefaultDistributionStrategy
from sim.engine.tensor import constant
from sim.engine.variable import Variable


def test_default_context():
    s = dist.get_strategy()
    assert s is dist.get_strategy()
    assert not dist.has_strategy()
    assert not dist.in_cross_replica_context()
    assert dist.get_replica_context().replica_id_in_sync_group == 0
    assert s.num_replicas_in_sync == 1


def test_default_singleton():
    with pytest.raises(RuntimeError, match="Should only create a single instance of _DefaultDistributionStrategy"):
        _DefaultDistributionStrategy()
    with pytest.raises(RuntimeError, match="Should only create a single instance"):
        copy.deepcopy(dist.get_strategy())


def test_default_reduce_t22():
    s = dist.get_strategy()
    assert s.reduce("SUM", 1., axis=None) == 1.0          # the guide's library-code snippet
    assert s.reduce(dist.ReduceOp.SUM, 3.0, None) == 3.0
    r = s.reduce(dist.ReduceOp.MEAN, constant([[1., 2.], [3., 4.]]), axis=0)
    np.testing.assert_allclose(r.numpy(), [2., 3.])
    r = s.reduce(dist.ReduceOp.SUM, constant([[1., 2.], [3., 4.]]), axis=0)
    np.testing.assert_allclose(r.numpy(), [4., 6.])
    assert s.experimental_local_results(5) == (5,)


def test_default_devices_unsupported():
    with pytest.raises(RuntimeError, match="unsupported by default tf.distribute.Strategy"):
        dist.get_strategy().extended.worker_devices


def test_default_scope_and_variables():
    s = dist.get_strategy()
    v = Variable(1.0)
    assert s.extended.variable_created_in_scope(v)
    with s.scope():
        w = Variable(2.0)
        assert dist.get_strategy() is s
    assert type(w) is Variable


def test_run_args_must_be_tuple():
    with pytest.raises(ValueError, match="positional args must be a list or tuple, got <class 'int'>"):
        dist.get_strategy().run(lambda x: x, args=1)


def test_one_device():
    s = dist.OneDeviceStrategy(device="/gpu:0")
    assert s.num_replicas_in_sync == 1
    assert s.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",)
    with s.scope():
        assert dist.has_strategy() and dist.in_cross_replica_context()
        assert dist.get_replica_context() is None
        v = Variable(3.0)
    assert s.extended.variable_created_in_scope(v)
    assert not dist.get_strategy().extended.variable_created_in_scope(v)
    out = s.run(lambda x: (x * 2, dist.get_replica_context().replica_id_in_sync_group), args=(v,))
    assert float(out[0]) == 6.0 and int(out[1]) == 0
    assert s.reduce("sum", out[0], axis=None) is out[0]
    assert s.extended.last_step_time > 0


def test_reduce_inside_run_needs_merge_call():
    s = dist.OneDeviceStrategy("/gpu:0")
    with pytest.raises(RuntimeError, match="Method requires being in cross-replica context, use "
                                           r"get_replica_context\(\).merge_call\(\)"):
        s.run(lambda: s.reduce("SUM", 1.0, axis=None))


def test_mixing_strategies():
    a, b = dist.OneDeviceStrategy("/gpu:0"), dist.OneDeviceStrategy("/gpu:1")
    with a.scope():
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
            with b.scope():
                pass
        with a.scope():          # re-entrant
            assert dist.get_strategy() is a


def test_merge_call_single_replica():
    s = dist.OneDeviceStrategy("/gpu:0")

    def fn():
        ctx = dist.get_replica_context()
        return ctx.merge_call(lambda strategy, x: (strategy is s, dist.in_cross_replica_context(), x + 1),
                              args=(1,))
    assert s.run(fn) == (True, True, 2)
