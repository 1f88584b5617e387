"""tf-keras's ``tf.keras.mixed_precision.LossScaleOptimizer`` (LossScaleOptimizerV3 and, around a
``tf.keras.optimizers.legacy`` optimizer, the optimizer_v2 one: the same rules).

Follows tf_keras/mixed_precision/loss_scale_optimizer.py: ``get_scaled_loss`` multiplies by the
scale, ``get_unscaled_gradients`` by its float32 reciprocal; ``apply_gradients`` (replica
context) first SUM-all-reduces the gradients, so a NaN or inf on any replica reaches every
replica, then in one ``merge_call`` updates the scale (loss_scale_rules.py) and applies the
all-reduced gradients through the inner optimizer, or skips and only counts the step.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import distribute_utils as du
from sim.keras.mixed_precision import loss_scale_rules as rules
from sim.keras.optimizers import utils
from sim.keras.optimizers.empty_gradients import filter_empty_gradients
from sim.keras.optimizers.optimizer import Optimizer


class _DynamicLossScaleState:
    """The scale (float32 'current_loss_scale') and the finite steps since it changed
    (int64 'good_steps'), made where the optimizer is made (in the strategy scope, mirrored)."""

    def __init__(self, initial_loss_scale, growth_steps, multiplier):
        self.initial_loss_scale = float(initial_loss_scale)
        self.growth_steps = int(growth_steps)
        self.multiplier = float(multiplier)
        kw = dict(trainable=False, synchronization=tf.VariableSynchronization.AUTO,
                  aggregation=tf.VariableAggregation.NONE)
        self.current_loss_scale = tf.Variable(np.float32(self.initial_loss_scale),
                                              name="current_loss_scale", dtype=tf.float32, **kw)
        self.counter = tf.Variable(np.int64(0), name="good_steps", dtype=tf.int64, **kw)

    def update(self, finite):
        scale, counter, apply = rules.next_state_tf_keras(
            self.current_loss_scale.numpy(), int(self.counter.numpy()), finite,
            self.growth_steps, self.multiplier)
        self.current_loss_scale.assign(np.float32(scale))
        self.counter.assign(np.int64(counter))
        return apply


def _check_strategy():
    if du.has_strategy():
        kind = type(du.get_strategy()).__name__
        if kind not in ("MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy",
                        "_DefaultDistributionStrategy"):
            if "TPU" in kind:
                raise ValueError(
                    "Loss scaling is not supported with TPUStrategy. Loss scaling is unnecessary "
                    "with TPUs, since they support bfloat16 instead of float16 and bfloat16 does "
                    "not require loss scaling. You should remove the use of the "
                    "LossScaleOptimizer when TPUs are used.")
            raise ValueError("Loss scaling is not supported with the tf.distribute.Strategy: "
                             f"{kind}. Try using a different Strategy, e.g. a MirroredStrategy")


class LossScaleOptimizerV3(Optimizer):
    """Wraps ``inner_optimizer``; scales the loss by a dynamic factor against float16 underflow."""

    def __init__(self, inner_optimizer, dynamic=True, initial_scale=None, dynamic_growth_steps=None):
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError(f'"inner_optimizer" must be an instance of Optimizer, but got: '
                            f"{inner_optimizer}.")
        if not isinstance(dynamic, bool):
            raise TypeError('"dynamic" argument to LossScaleOptimizer.__init__ must be a bool, but '
                            f"got: {dynamic!r}")
        if isinstance(inner_optimizer, LossScaleOptimizerV3):
            raise TypeError(f"LossScaleOptimizer cannot wrap another LossScaleOptimizer, but got: "
                            f"{inner_optimizer}")
        _check_strategy()
        if getattr(inner_optimizer, "_is_wrapped_by_loss_scale_optimizer", False):
            raise ValueError('"inner_optimizer" is already wrapped by a LossScaleOptimizer. An '
                             "optimizer can only be wrapped by a single LossScaleOptimizer")
        self.__dict__["_optimizer"] = inner_optimizer
        inner_optimizer._is_wrapped_by_loss_scale_optimizer = True
        if dynamic:
            self._loss_scale = _DynamicLossScaleState(
                rules.INITIAL_SCALE if initial_scale is None else initial_scale,
                rules.GROWTH_STEPS if dynamic_growth_steps is None else dynamic_growth_steps, 2)
        else:
            if initial_scale is None:
                raise ValueError('"initial_scale" must be specified if "dynamic" is False')
            if dynamic_growth_steps is not None:
                raise ValueError('"dynamic_growth_steps" must be None if "dynamic" is False, but '
                                 f"got: {dynamic_growth_steps}")
            self._loss_scale = float(initial_scale)
        self._loss_has_been_scaled = False
        self._gradients_have_been_unscaled = False

    def __getattr__(self, name):          # what the wrapper lacks is the inner optimizer's
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.__dict__["_optimizer"], name)

    # ------------------------------------------------------------ the scale
    dynamic = property(lambda self: isinstance(self._loss_scale, _DynamicLossScaleState))
    inner_optimizer = property(lambda self: self._optimizer)

    @property
    def loss_scale(self):
        if self.dynamic:
            return tf.convert_to_tensor(self._loss_scale.current_loss_scale)
        return tf.convert_to_tensor(np.float32(self._loss_scale))

    @property
    def dynamic_counter(self):
        return self._loss_scale.counter if self.dynamic else None

    @property
    def initial_scale(self):
        return self._loss_scale.initial_loss_scale if self.dynamic else self._loss_scale

    @property
    def dynamic_growth_steps(self):
        return self._loss_scale.growth_steps if self.dynamic else None

    def get_scaled_loss(self, loss):
        self._loss_has_been_scaled = True
        if callable(loss):
            def new_loss():
                value = loss()
                return value * tf.cast(self.loss_scale, value.dtype)
            return new_loss
        return loss * tf.cast(self.loss_scale, loss.dtype)

    def get_unscaled_gradients(self, grads):
        self._gradients_have_been_unscaled = True
        reciprocal = 1.0 / self.loss_scale
        return [None if g is None else g * tf.cast(reciprocal, g.dtype) for g in grads]

    # ------------------------------------------------------------ applying
    def minimize(self, loss, var_list, tape=None):
        var_list = list(var_list() if callable(var_list) and not isinstance(var_list, list) else var_list)
        tape = tf.GradientTape() if tape is None else tape
        with tape:
            loss = self.get_scaled_loss(loss() if callable(loss) else loss)
        grads = self.get_unscaled_gradients(tape.gradient(loss, var_list))
        return self.apply_gradients(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False, **kwargs):
        if du.has_strategy() and du.in_cross_replica_context():
            raise ValueError("apply_gradients() must be called in a replica context.")
        _check_strategy()
        grads_and_vars = filter_empty_gradients(grads_and_vars)
        if not skip_gradients_aggregation and kwargs.pop("experimental_aggregate_gradients", True) \
                and du.get_replica_context().num_replicas_in_sync > 1:
            grads = utils.all_reduce_sum_gradients(grads_and_vars)
            grads_and_vars = list(zip(grads, [v for _, v in grads_and_vars]))
        finite = rules.all_finite([g for g, _ in grads_and_vars])
        grads = self._optimizer._clip([g for g, _ in grads_and_vars])
        variables = [v for _, v in grads_and_vars]
        return du.get_replica_context().merge_call(
            self._apply_cross_replica, args=(finite, list(zip(grads, variables))))

    def _apply_cross_replica(self, strategy, finite, grads_and_vars):
        finite = bool(du.local_results(strategy, finite)[0])    # the same on every replica
        apply = self._loss_scale.update(finite) if self.dynamic else True
        if apply:
            return self._optimizer._distributed_apply(strategy, grads_and_vars)
        self._optimizer.iterations.assign_add(1)
        return self._optimizer.iterations

    # ------------------------------------------------------------ delegated
    @property
    def iterations(self):
        return self._optimizer.iterations

    @iterations.setter
    def iterations(self, value):
        self._optimizer.iterations = value

    @property
    def variables(self):
        return self._optimizer.variables

    @property
    def learning_rate(self):
        return self._optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self._optimizer.learning_rate = value

    lr = learning_rate

    def build(self, var_list):
        return self._optimizer.build(var_list)

    def get_config(self):
        from sim.keras import optimizers
        return {"inner_optimizer": optimizers.serialize(self._optimizer), "dynamic": self.dynamic,
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from sim.keras import optimizers
        config = dict(config)
        inner = config.pop("inner_optimizer")
        return cls(inner if isinstance(inner, Optimizer) else optimizers.deserialize(inner), **config)


class LossScaleOptimizer(LossScaleOptimizerV3):
    """The same rules around a ``tf.keras.optimizers.legacy`` optimizer (tf-keras's optimizer_v2
    wrapper; its class name is what ``type()`` shows)."""


def make(inner_optimizer, *args, **kwargs):
    """tf-keras's metaclass: V3 around a new optimizer, the optimizer_v2 one around a legacy one."""
    cls = LossScaleOptimizer if getattr(inner_optimizer, "_legacy", False) else LossScaleOptimizerV3
    return cls(inner_optimizer, *args, **kwargs)
