"""Simulated step time on one device: roofline plus a launch overhead per op (per step on TPU),
for the default strategy and OneDeviceStrategy too (tf_distribute_semantics.md §8.3-8.4)."""
import re

import numpy as np
import pytest

import sim.tf as tf
from sim import runtime
from sim.distribute import _machine, timing
from sim.engine import counting


@pytest.fixture(autouse=True)
def _course_machine():
    _machine.use_machine("workstation-4gpu")
    yield
    _machine.use_machine("workstation-4gpu")


def _small_step():
    a = tf.constant(np.ones((8, 16), np.float32))
    b = tf.constant(np.ones((16, 4), np.float32))
    return lambda: tf.reduce_sum(tf.nn.relu(tf.matmul(a, b)) + 1.0)


def _counted(device_name, fn):
    """The roofline time of ``fn``'s counted work on the device, and its op count."""
    with counting() as c:
        fn()
    dev = _machine.device(device_name)
    return max(c.flops / dev.peak_flops["float32"], c.bytes / dev.memory_bandwidth), c.ops


def _expected(device_name, fn, per_op):
    """Closed form: roofline of the counted work plus ops x the device's launch overhead."""
    roofline, ops = _counted(device_name, fn)
    assert ops >= 4
    return roofline + ops * per_op, roofline


def test_default_strategy_charges_roofline_plus_launches_on_gpu0():
    s = tf.distribute.get_strategy()
    fn = _small_step()
    want, roofline = _expected(_machine.local_devices("GPU")[0], fn, timing.GPU_OP_OVERHEAD)
    before = runtime.clock().now
    s.run(fn)
    assert s.extended.last_step_time == pytest.approx(want, rel=1e-12)
    assert runtime.clock().now - before == pytest.approx(want, rel=1e-12)
    assert want > 10 * roofline        # a tiny step is launch-bound, as on a real GPU


def test_default_strategy_without_gpu_charges_the_cpu():
    _machine.use_machine("cpu-cluster")
    s = tf.distribute.get_strategy()
    fn = _small_step()
    want, _ = _expected(_machine.local_devices("CPU")[0], fn, timing.CPU_OP_OVERHEAD)
    before = runtime.clock().now
    s.run(fn)
    assert runtime.clock().now - before == pytest.approx(want, rel=1e-12)


def test_one_device_strategy_charges_its_device():
    s = tf.distribute.OneDeviceStrategy("/gpu:2")
    fn = _small_step()
    want, _ = _expected("/gpu:2", fn, timing.GPU_OP_OVERHEAD)
    s.run(fn)
    assert s.extended.last_step_time == pytest.approx(want, rel=1e-12)
    assert [e.where for e in s.extended.last_step_trace] == [_machine.canonical("/gpu:2")]


def test_tpu_pays_one_launch_per_step_not_per_op():
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="tpu-v3-8")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    s = tf.distribute.TPUStrategy(resolver)
    core = s.extended.worker_devices[0]
    for fn in (_small_step(), lambda: tf.constant(2.0) * 3.0):   # 5 ops, then 1 op
        roofline, _ = _counted(core, fn)
        s.run(fn)
        assert s.extended.last_step_time == pytest.approx(roofline + timing.TPU_STEP_OVERHEAD,
                                                          rel=1e-12)


def test_keras_fit_reports_simulated_time_per_step_on_one_device(capsys):
    x = np.random.default_rng(0).random((64, 4)).astype("float32")
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    before = runtime.clock().now
    model.fit(x, x.sum(1, keepdims=True), batch_size=16, epochs=1, verbose=2)
    line = capsys.readouterr().out
    per_step = re.search(r"(\d+)us/step", line)
    assert per_step and int(per_step.group(1)) > 0, line
    assert runtime.clock().now - before >= 4 * 4 * timing.GPU_OP_OVERHEAD   # 4 steps, >= 4 ops each
