"""Learning-rate schedules equal TensorFlow's formulas."""
import pytest

import sim.tf as tf

schedules = tf.keras.optimizers.schedules


@pytest.mark.parametrize("staircase", [False, True])
def test_exponential_and_inverse_time_decay(staircase):
    exp = schedules.ExponentialDecay(0.1, decay_steps=4, decay_rate=0.5, staircase=staircase)
    inv = schedules.InverseTimeDecay(0.1, decay_steps=4, decay_rate=0.5, staircase=staircase)
    for step in [0, 1, 3, 4, 6, 9]:
        p = step // 4 if staircase else step / 4
        assert float(exp(step)) == pytest.approx(0.1 * 0.5 ** p, rel=1e-6)
        assert float(inv(step)) == pytest.approx(0.1 / (1 + 0.5 * p), rel=1e-6)
    assert inv.get_config()["staircase"] is staircase


def test_piecewise_constant_decay_boundaries():
    sched = schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    assert [float(sched(s)) for s in (0, 10, 11, 20, 21)] == pytest.approx([1.0, 1.0, 0.5, 0.5, 0.1])
