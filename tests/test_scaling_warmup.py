"""Warmup schedules: TensorFlow's formulas at chosen steps, config round trips, Model.fit under Mirrored."""
import numpy as np
import pytest

import sim.tf as tf
from sim.i18n import set_language
from sim.scaling import ConstantWarmup, GradualWarmup, learning_rates

schedules = tf.keras.optimizers.schedules


def model_garden_linear_warmup(step, after, warmup_steps, warmup_lr):
    """tfm.optimization.LinearWarmup's __call__, written out (after: a number or step -> rate)."""
    value = after if callable(after) else (lambda s: after)
    if step < warmup_steps:
        return warmup_lr + step / warmup_steps * (value(warmup_steps) - warmup_lr)
    return value(step)


@pytest.mark.parametrize("step", [0, 1, 7, 19, 20, 21, 50, 100])
def test_gradual_warmup_to_a_constant_matches_the_model_gardens_formula(step):
    sched = GradualWarmup(6.4, warmup_steps=20, warmup_learning_rate=0.1)
    expected = model_garden_linear_warmup(step, 6.4, 20, 0.1)
    assert float(sched(step)) == pytest.approx(expected, rel=1e-6)
    assert sched(step).dtype == tf.float32


@pytest.mark.parametrize("step", [0, 5, 9, 10, 11, 30, 31, 60])
def test_gradual_warmup_hands_over_to_a_step_decay(step):
    decay = schedules.PiecewiseConstantDecay([30], [1.6, 0.16])
    sched = GradualWarmup(decay, warmup_steps=10, warmup_learning_rate=0.1)
    expected = model_garden_linear_warmup(step, lambda s: 1.6 if s <= 30 else 0.16, 10, 0.1)
    assert float(sched(step)) == pytest.approx(expected, rel=1e-6)


def test_gradual_warmup_is_kerass_cosine_decay_warmup_phase():
    """Keras 3's CosineDecay(warmup_target=, warmup_steps=) ramps with the same formula:
    initial + (target - initial) * step / warmup_steps."""
    initial, target, warm = 0.05, 0.8, 16
    for step in (0, 3, 8, 15):
        keras_value = (target - initial) * (step / warm) + initial
        assert float(GradualWarmup(target, warm, initial)(step)) == pytest.approx(keras_value, rel=1e-6)


@pytest.mark.parametrize("step, expected", [(0, 0.1), (19, 0.1), (20, 6.4), (80, 6.4)])
def test_constant_warmup_jumps_at_the_end_of_the_warmup(step, expected):
    assert float(ConstantWarmup(6.4, 20, 0.1)(step)) == pytest.approx(expected, rel=1e-6)


def test_no_warmup_steps_is_the_after_schedule_itself():
    decay = schedules.ExponentialDecay(0.5, decay_steps=10, decay_rate=0.5)
    sched = GradualWarmup(decay, warmup_steps=0, warmup_learning_rate=0.01)
    assert [float(sched(s)) for s in (0, 10, 20)] == pytest.approx([0.5, 0.25, 0.125])


@pytest.mark.parametrize("cls", [GradualWarmup, ConstantWarmup])
@pytest.mark.parametrize("after", [6.4, schedules.PiecewiseConstantDecay([30], [1.6, 0.16]),
                                   schedules.CosineDecay(2.0, decay_steps=50, alpha=0.1)])
def test_get_config_from_config_round_trip(cls, after):
    sched = cls(after, warmup_steps=12, warmup_learning_rate=0.1, name="warm")
    config = sched.get_config()
    import json
    config = json.loads(json.dumps(config))          # the config is plain JSON
    again = cls.from_config(config)
    assert again.get_config() == config
    steps = [0, 5, 11, 12, 13, 31, 70]
    assert [float(again(s)) for s in steps] == [float(sched(s)) for s in steps]


def test_learning_rates_lists_the_schedule_step_by_step():
    rates = learning_rates(GradualWarmup(0.5, 4, 0.1), 6)
    assert rates == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5, 0.5])
    assert learning_rates(0.3, 3) == pytest.approx([0.3, 0.3, 0.3])


def test_bad_warmup_steps_are_named():
    set_language("en")
    with pytest.raises(ValueError, match="warmup_steps must be a whole number of steps"):
        GradualWarmup(1.0, warmup_steps=2.5, warmup_learning_rate=0.1)


def test_the_warmup_drives_sgd_in_model_fit_under_mirrored_strategy():
    """Each fit step uses the schedule's rate at the optimizer's step: with a linear model and
    a constant gradient direction, the weight moves by exactly rate x gradient each step."""
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(0)
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    sched = GradualWarmup(0.4, warmup_steps=4, warmup_learning_rate=0.1)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, use_bias=False, kernel_initializer="zeros",
                                                           input_shape=(1,))])
        model.compile(loss="mae", optimizer=tf.keras.optimizers.SGD(sched))
    x = np.ones((8, 1), np.float32)
    y = np.full((8, 1), 100.0, np.float32)      # far away: the MAE gradient stays -1 every step
    weights = []
    for _ in range(6):
        model.fit(x, y, batch_size=8, epochs=1, verbose=0)
        weights.append(float(model.get_weights()[0][0, 0]))
    steps = np.diff([0.0] + weights)
    assert steps == pytest.approx(learning_rates(sched, 6), rel=1e-5)
    assert int(model.optimizer.iterations.numpy()) == 6
