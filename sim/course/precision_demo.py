"""Loss scaling in numbers (lesson 09): a gradient float16 cannot hold, and the overflow that
dynamic loss scaling meets, skips and recovers from. Everything runs on sim.tf in float16 as
TensorFlow's CPU kernels compute it (cross-checked in tests/tf_crosscheck/test_mixed_precision.py).

``underflow_rescue()`` : one gradient, in float32, in float16, and scaled then unscaled.
``overflow_rescue()``  : a mixed_float16 model trained by a LossScaleOptimizer from 2**15, one
                         record per step (scale, whether the gradients were finite, applied or
                         skipped, loss).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Rescue(NamedTuple):
    gradient: float          # the true value (float32)
    in_float16: float        # what float16 keeps of it (0.0: underflow)
    scale: float
    scaled_in_float16: float  # gradient * scale, as float16 holds it
    unscaled: float          # back in float32, divided by the scale


def underflow_rescue(gradient=1e-8, scale=2.0 ** 15) -> Rescue:
    """float16's smallest subnormal is 6e-8: 1e-8 becomes 0; times 2**15 it is 3.3e-4, held."""
    import sim.tf as tf
    g = tf.constant(np.float32(gradient))
    scaled = tf.cast(g * np.float32(scale), tf.float16)
    back = tf.cast(scaled, tf.float32) / np.float32(scale)
    return Rescue(float(g.numpy()), float(tf.cast(g, tf.float16).numpy()), float(scale),
                  float(scaled.numpy()), float(back.numpy()))


class Step(NamedTuple):
    step: int
    scale: float             # the loss scale this step used
    finite: bool             # were all gradients finite?
    loss: float
    iterations: int          # the inner optimizer's applied steps so far


def overflow_rescue(steps=8, learning_rate=0.01) -> list:
    """Large targets: at 2**15 the float16 gradients overflow to inf, so each such step is
    skipped and the scale halved, until the scale is small enough and training proceeds."""
    import sim.tf as tf
    mp = tf.keras.mixed_precision
    x = (((np.arange(64, dtype=np.float32).reshape(16, 4) % 5) - 2.0) / 2.0)[:8]
    y = (x @ np.array([[3.0], [-2.0], [1.0], [0.5]], np.float32) * 40.0).astype(np.float32)
    from sim.keras.mixed_precision.policy import global_policy_kept
    # inf - inf is the point here; the global policy goes back as found
    with global_policy_kept(), np.errstate(over="ignore", invalid="ignore"):
        mp.set_global_policy("mixed_float16")
        model = tf.keras.Sequential([tf.keras.Input(shape=(4,)),
                                     tf.keras.layers.Dense(3, activation="relu"),
                                     tf.keras.layers.Dense(1, dtype="float32")])
        model.set_weights([np.full((4, 3), 0.3, np.float32) * np.array([1, -1, 0.5], np.float32),
                           np.array([0.1, 0.2, 0.0], np.float32),
                           np.array([[0.5], [-0.4], [0.2]], np.float32), np.zeros(1, np.float32)])
        opt = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(learning_rate))
        records = []
        for i in range(steps):
            scale = _scale(opt)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(tf.constant(x)) - y))
                scaled = opt.get_scaled_loss(loss) if hasattr(opt, "get_scaled_loss") \
                    else opt.scale_loss(loss)
            grads = tape.gradient(scaled, model.trainable_variables)
            finite = all(bool(np.isfinite(np.asarray(g)).all()) for g in grads)
            if hasattr(opt, "get_unscaled_gradients"):
                grads = opt.get_unscaled_gradients(grads)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            records.append(Step(i + 1, scale, finite, float(loss.numpy()), int(opt.iterations.numpy())))
        return records


def _scale(opt):
    """The scale the next step uses (tf-keras: ``loss_scale``; Keras 3: ``dynamic_scale``,
    ``initial_scale`` before its first step)."""
    if hasattr(opt, "get_scaled_loss"):
        return float(np.asarray(opt.loss_scale))
    return float(np.asarray(opt.dynamic_scale)) if opt.built else float(opt.initial_scale)
