"""One replica per worker: ``experimental_distribute_values_from_function`` gives a 1-component
PerReplica (as TensorFlow's always_wrap regroup does) and ``run`` hands ``fn`` its value, not the
PerReplica (TensorFlow's select_replica). Cross-checked: values_from_function_one_device."""
import numpy as np
import pytest

import sim.tf as tf
from sim import runtime
from sim.distribute.values import PerReplica
from sim.hardware.presets import workstation_4gpu


def _value(ctx):
    return tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1)


def _check(strategy):
    v = strategy.experimental_distribute_values_from_function(_value)
    assert isinstance(v, PerReplica) and len(v.values) == 1
    out = strategy.run(lambda x: x * 2.0 + float(x.shape[0]), args=(v,))
    assert not isinstance(out, tf.distribute.DistributedValues)
    np.testing.assert_array_equal(out.numpy(), [4.0, 6.0])
    kw = strategy.run(lambda x=None: tf.reduce_sum(x), kwargs={"x": v})
    assert float(kw) == 3.0
    nested = strategy.run(lambda d: d["a"][0] + 1.0, args=({"a": [v]},))
    np.testing.assert_array_equal(nested.numpy(), [2.0, 3.0])


def test_mirrored_with_one_device_runs_on_the_value():
    _check(tf.distribute.MirroredStrategy(["/gpu:0"]))


@pytest.fixture
def one_gpu_machine():
    runtime.use_machine(workstation_4gpu(gpus=1))
    yield
    runtime.use_machine("workstation-4gpu")


def test_multi_worker_mirrored_with_one_device_runs_on_the_value(one_gpu_machine):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.num_replicas_in_sync == 1
    _check(strategy)
