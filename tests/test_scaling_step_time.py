"""Simulated step time and time to target: the roofline and the all-reduce, each checked on its own."""
import numpy as np
import pytest

import sim.tf as tf
from sim.collectives.compare import time_one
from sim.distribute.timing import GPU_OP_OVERHEAD
from sim.scaling.critical_batch import StepsFit
from sim.scaling.step_time import course_machine, measure_step_cost, step_seconds, time_to_target


def linear_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(16,))])


@pytest.fixture(scope="module")
def cost():
    return measure_step_cost(linear_model, 16)


def test_step_cost_is_linear_in_the_batch(cost):
    """Two batch sizes give the line; a third, counted afresh, lies on it."""
    from sim.engine import counting
    tf.keras.utils.set_random_seed(0)
    model = linear_model()
    x, y = np.zeros((24, 16), np.float32), np.zeros((24, 1), np.float32)
    model(x[:1])
    optimizer = tf.keras.optimizers.SGD(0.01)
    with counting() as c:
        with tf.GradientTape() as tape:
            loss = tf.keras.losses.get("mse")(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    assert c.flops == pytest.approx(cost.flops(24))
    assert c.bytes == pytest.approx(cost.bytes(24))
    assert c.ops == cost.ops
    assert cost.parameter_bytes == 4 * 17


def test_compute_is_the_roofline_plus_launches_and_one_replica_has_no_all_reduce(cost):
    machine = course_machine(1)
    gpu = machine.devices_of("GPU")[0]
    compute, reduce = step_seconds(cost, 32, 1)
    roofline = max(cost.flops(32) / gpu.peak_flops["float32"], cost.bytes(32) / gpu.memory_bandwidth)
    assert compute == pytest.approx(roofline + cost.ops * GPU_OP_OVERHEAD)
    assert reduce == 0.0


@pytest.mark.parametrize("replicas", [2, 8, 16, 64])
def test_all_reduce_is_the_collectives_replay_on_enough_nodes(cost, replicas):
    machine = course_machine(replicas)
    assert len(machine.devices_of("GPU")) == max(8, replicas)
    _, reduce = step_seconds(cost, 32, replicas)
    assert reduce == pytest.approx(time_one("nccl", machine, cost.parameter_bytes, p=replicas)["time_us"] * 1e-6)
    assert reduce > 0


def test_time_to_target_is_steps_times_step_time_and_stops_paying_past_the_critical_batch(cost):
    fit = StepsFit(s_min=10.0, b_crit=256.0)
    result = time_to_target(fit.steps, cost, 32, [1, 2, 4, 8, 16, 32, 64])
    assert result.seconds == pytest.approx(result.steps * (result.compute_seconds + result.allreduce_seconds))
    assert np.all(np.diff(result.allreduce_seconds) > 0)
    speedup = result.seconds[:-1] / result.seconds[1:]
    assert speedup[0] > 1.5                       # B = 32 -> 64, far below B_crit: nearly 2x
    assert speedup[-1] < 1.2                      # B = 1024 -> 2048, far above: little left
