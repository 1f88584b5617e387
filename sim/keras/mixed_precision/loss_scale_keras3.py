"""Keras 3's ``keras.optimizers.LossScaleOptimizer`` (also ``tf.keras.mixed_precision``'s there).

Follows keras/src/optimizers/loss_scale_optimizer.py (TensorFlow backend, ``_tf_apply``):
``scale_loss`` multiplies by ``dynamic_scale`` (``initial_scale`` before the first step);
``apply_gradients`` in replica context merges once: replica 0's gradients, *before* the
all-reduce, decide whether the step is finite; then each replica divides its gradients by the
scale and hands them to the inner optimizer, which all-reduces and applies them. A skipped step
leaves ``iterations`` alone. Rules: loss_scale_rules.py.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import distribute_utils as du
from sim.keras.mixed_precision import loss_scale_rules as rules
from sim.keras.optimizers.empty_gradients import filter_empty_gradients
from sim.keras.optimizers.optimizer import Optimizer
from sim.keras.weight_names import as_keras3


class LossScaleOptimizer(Optimizer):
    """Wraps ``inner_optimizer``; scales the loss by a dynamic factor against float16 underflow."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply "
                             "set `loss_scale_factor` directly on the `inner_optimizer`.")
        if kwargs:
            raise ValueError("LossScaleOptimizer does not support arguments: "
                             f"`{'`, `'.join(kwargs.keys())}`.")
        self.__dict__["inner_optimizer"] = inner_optimizer
        self.name = name or "loss_scale_optimizer"
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.built = False

    def __getattr__(self, name):          # what the wrapper lacks is the inner optimizer's
        if name.startswith("__") or name in ("dynamic_scale", "step_counter"):
            raise AttributeError(f"'LossScaleOptimizer' object has no attribute '{name}'")
        return getattr(self.__dict__["inner_optimizer"], name)

    def _build_state(self):
        """``step_counter`` (int64) and ``dynamic_scale`` (float32), aggregation none."""
        kw = dict(trainable=False, aggregation=tf.VariableAggregation.NONE)
        self.step_counter = tf.Variable(np.int64(0), name="step_counter", dtype=tf.int64, **kw)
        self.dynamic_scale = tf.Variable(np.float32(self.initial_scale), name="dynamic_scale",
                                         dtype=tf.float32, **kw)
        for v, n in ((self.step_counter, "step_counter"), (self.dynamic_scale, "dynamic_scale")):
            as_keras3(v, n, f"{self.name}/{n}")
        self.built = True

    def scale_loss(self, loss):
        scale = self.dynamic_scale if self.built else self.initial_scale
        return loss * tf.cast(scale, "float32") if self.built else loss * scale

    def minimize(self, loss, var_list, tape=None):
        """Keras 3's train_step: scale the loss inside the tape, then ``apply_gradients``."""
        var_list = list(var_list() if callable(var_list) and not isinstance(var_list, list) else var_list)
        tape = tf.GradientTape() if tape is None else tape
        with tape:
            loss = self.scale_loss(loss() if callable(loss) else loss)
        return self.apply_gradients(zip(tape.gradient(loss, var_list), var_list))

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        if du.has_strategy() and du.in_cross_replica_context():
            raise ValueError("apply() must be called in a replica context.")
        grads_and_vars = filter_empty_gradients(grads_and_vars)
        grads = [g for g, _ in grads_and_vars]
        finite, scale = du.get_replica_context().merge_call(
            self._decide, args=(rules.all_finite(grads),))
        if finite:
            scale = tf.constant(np.float32(scale))
            self.inner_optimizer.apply_gradients([(g / scale, v) for g, v in grads_and_vars])
        return self.iterations

    def _decide(self, strategy, finite):
        """Cross-replica, once per step: replica 0's verdict, the scale to unscale by, and the
        scale and counter for the next step."""
        if not self.built:
            self._build_state()
        finite = bool(du.local_results(strategy, finite)[0])
        scale = np.float32(self.dynamic_scale.numpy())
        new_scale, counter, _ = rules.next_state_keras3(
            scale, int(self.step_counter.numpy()), finite, self.dynamic_growth_steps)
        self.dynamic_scale.assign(np.float32(new_scale))
        self.step_counter.assign(np.int64(counter))
        return finite, scale

    @property
    def variables(self):
        own = [self.step_counter, self.dynamic_scale] if self.built else []
        return own + list(self.inner_optimizer.variables)

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def get_config(self):
        from sim.keras import optimizers
        return {"name": self.name, "inner_optimizer": optimizers.serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from sim.keras import optimizers
        config = dict(config)
        return cls(optimizers.deserialize(config.pop("inner_optimizer")), **config)
