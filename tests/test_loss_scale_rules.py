"""Dynamic loss scaling's rules against hand computation (sim/keras/mixed_precision), both Keras
versions: start 2**15, double after 2000 finite steps in a row, halve and skip on inf/NaN.
Keras 3 halves without a floor and does not count a skipped step; tf-keras floors at 1 and counts
it (read in their sources; the same rules cross-checked on TF 2.21 in test_mixed_precision.py)."""
import numpy as np
import pytest

import sim.tf as tf
from keras_selection import keras  # noqa: F401  (the fixture)
from sim.keras.mixed_precision import loss_scale_rules as rules
from sim.keras.mixed_precision.policy import global_policy_kept


def test_tf_keras_rule_by_hand():
    s, c = rules.INITIAL_SCALE, 0
    assert s == 32768.0 and rules.GROWTH_STEPS == 2000
    for _ in range(1999):                        # 1999 finite steps: no growth yet
        s, c, applied = rules.next_state_tf_keras(s, c, True, 2000)
        assert applied
    assert (s, c) == (32768.0, 1999)
    s, c, applied = rules.next_state_tf_keras(s, c, True, 2000)   # the 2000th doubles
    assert (s, c, applied) == (65536.0, 0, True)
    s, c, applied = rules.next_state_tf_keras(s, 7, False, 2000)   # inf: halve, reset, skip
    assert (s, c, applied) == (32768.0, 0, False)
    assert rules.next_state_tf_keras(1.0, 0, False, 2000)[0] == 1.0   # never below 1
    big = np.float32(2.0 ** 127)                 # doubling would overflow float32: kept
    assert rules.next_state_tf_keras(big, 1999, True, 2000)[0] == big


def test_keras3_rule_by_hand():
    s, c = np.float32(32768.0), 0
    for _ in range(1999):
        s, c, _ = rules.next_state_keras3(s, c, True, 2000)
    assert (s, c) == (32768.0, 1999)
    assert rules.next_state_keras3(s, c, True, 2000)[:2] == (65536.0, 0)
    assert rules.next_state_keras3(1.0, 0, False, 2000)[0] == 0.5     # no floor
    assert rules.next_state_keras3(8.0, 3, False, 2000) == (4.0, 0, False)


def test_all_finite():
    assert rules.all_finite([np.ones(3), None, tf.constant([1.0, 2.0])])
    assert not rules.all_finite([np.ones(3), tf.constant([1.0, np.inf])])
    assert not rules.all_finite([tf.cast(tf.constant([70000.0]), tf.float16)])   # float16 inf
    assert not rules.all_finite([np.array([np.nan])])


def _lso_steps(grads_per_step, growth_steps=2, initial=8.0, lr=0.5):
    """One float32 weight w=1, SGD(lr), the given raw gradients (already 'scaled'): what the
    optimizer does with them step by step -> [(scale after, counter after, iterations, w)]."""
    w = tf.Variable([1.0])
    opt = tf.keras.mixed_precision.LossScaleOptimizer(
        tf.keras.optimizers.SGD(lr), initial_scale=initial, dynamic_growth_steps=growth_steps)
    out = []
    for g in grads_per_step:
        grads = [tf.constant([g], tf.float32)]
        if hasattr(opt, "get_unscaled_gradients"):
            grads = opt.get_unscaled_gradients(grads)
        opt.apply_gradients(zip(grads, [w]))
        scale = opt.loss_scale if hasattr(opt, "get_scaled_loss") else opt.dynamic_scale
        counter = opt.dynamic_counter if hasattr(opt, "get_scaled_loss") else opt.step_counter
        out.append((float(np.asarray(scale)), int(np.asarray(counter)),
                    int(np.asarray(opt.iterations)), float(w.numpy()[0])))
    return out


def test_optimizer_skips_halves_and_grows_by_hand(keras):
    # scale 8: gradient 8 unscales to 1 -> w = 1 - 0.5 = 0.5; the 2nd finite step doubles to 16;
    # inf: skipped (w kept), halved to 8; then 16 / 8 = 2 -> w = 0.5 - 1 = -0.5.
    steps = _lso_steps([8.0, 16.0, np.inf, 16.0])
    counted = keras == "tf-keras"               # a skipped step counts in tf-keras only
    assert steps == [(8.0, 1, 1, 0.5),
                     (16.0, 0, 2, -0.5),
                     (8.0, 0, 3 if counted else 2, -0.5),
                     (8.0, 1, 4 if counted else 3, -1.5)]


def test_scaled_loss_and_unscaled_gradients(keras):
    opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1))
    loss = tf.constant(3.0)
    if keras == "tf-keras":
        assert float(opt.get_scaled_loss(loss)) == 3.0 * 2 ** 15
        (g,) = opt.get_unscaled_gradients([tf.constant([2.0 ** 16])])
        assert float(g.numpy()[0]) == 2.0
        assert type(opt).__name__ == "LossScaleOptimizerV3"
    else:
        assert float(opt.scale_loss(loss)) == 3.0 * 2 ** 15          # initial_scale before build
        assert not hasattr(opt, "get_scaled_loss")
        assert type(opt).__name__ == "LossScaleOptimizer"
    assert opt.initial_scale == 2 ** 15 and opt.dynamic_growth_steps == 2000


def test_compile_wraps_under_mixed_float16_only(keras):
    mp = tf.keras.mixed_precision
    with global_policy_kept():
        for policy, wrapped in (("mixed_float16", True), ("mixed_bfloat16", False), ("float32", False)):
            mp.set_global_policy(policy)
            model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
            assert isinstance(model.optimizer, mp.LossScaleOptimizer) is wrapped, policy


def test_bad_arguments(keras):
    mp = tf.keras.mixed_precision
    if keras == "tf-keras":
        with pytest.raises(TypeError, match='"dynamic" argument to LossScaleOptimizer'):
            mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
        with pytest.raises(ValueError, match='"initial_scale" must be specified'):
            mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), dynamic=False)
    else:
        with pytest.raises(ValueError, match="no longer supports `dynamic=False`"):
            mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), dynamic=False)
