"""The optimizer base class: gradient aggregation and the per-variable update (§4.5).

``apply_gradients`` inside ``strategy.run`` (replica context): drop None gradients, SUM the
rest across replicas onto each variable's devices (unless told not to; ``utils``), then
``merge_call`` into cross-replica context and apply each update once per variable through
``strategy.extended.update(var, fn, args=(grad,), group=False)``, so every mirror gets the
same update. Subclasses write only ``_update_step(var, grad, lr, slots)`` with tf ops.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import _errors, backend, divergence, distribute_utils as du
from sim.keras.optimizers import checkpoint_names, rate, schedules, utils
from sim.keras.version import keras_major
from sim.keras.optimizers.empty_gradients import filter_empty_gradients
from sim.keras.optimizers.keras2_arguments import keras2_arguments
from sim.keras.optimizers.slot_names import SLOT_SCOPE_TEXT as _SLOT_SCOPE_TEXT, slot_variable_name
from sim.keras.weight_names import as_keras3
from sim.storage import deferred_restore


class _VariablesList(list):
    """``optimizer.variables`` is a property in Keras 2.11+ and a method in legacy: both work."""

    def __call__(self):
        return self


class Optimizer:
    """Base optimizer (Keras 2.11+ semantics; the legacy module subclasses it)."""

    _slot_names: tuple = ()
    _legacy = False   # tf.keras.optimizers.legacy (optimizer_v2): takes `lr` and `decay`

    def __init__(self, name, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, jit_compile=True, **kwargs):
        learning_rate, self._decay = keras2_arguments(self, learning_rate, kwargs)
        if sum(x is not None for x in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set.")
        self.name = name
        self._learning_rate = learning_rate   # a float, a schedule or a callable
        self._rate_variable = None            # the float rate's variable (rate.py), made on first read
        self._path_name = backend.unique_object_name(backend.to_snake_case(name))  # Keras 3's "sgd_1"
        self._applied_rate = None             # the rate of the last apply_gradients (tf-keras)
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.jit_compile = jit_compile
        self._iterations = None
        divergence.register(self)      # a ps cluster names the rate when training diverges
        self._slots: dict[int, dict] = {}  # id(var or component) -> {slot name: slot var}
        self._slot_vars = _VariablesList()
        self._built_vars: list = []
        self._distribution_strategy = du.get_strategy() if du.has_strategy() else None

    # ------------------------------------------------------------ hyperparameters

    @property
    def learning_rate(self):
        """The rate as the selected Keras shows it (rate.py): a float32 variable, or under a
        schedule the current rate (Keras 3: a tensor; tf-keras: 'current_learning_rate:0')."""
        from sim.keras.version import keras_major
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            step = int(backend.get_value(self.iterations))
            if keras_major() == 3:
                return tf.constant(np.float32(lr.value(step)))
            applied = lr.value(0) if self._applied_rate is None else self._applied_rate
            return rate.RateVariable(applied, "current_learning_rate",
                                     f"{self._path_name}/current_learning_rate")
        if callable(lr):
            return lr
        if self._rate_variable is None:
            self._rate_variable = rate.RateVariable(lr, "learning_rate",
                                                    f"{self._path_name}/learning_rate")
        return self._rate_variable

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, schedules.LearningRateSchedule):
            self._learning_rate, self._rate_variable = value, None
            return
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            raise TypeError(rate.TYPE_ERROR)
        self._learning_rate = float(backend.get_value(value))
        if self._rate_variable is not None:
            self._rate_variable.assign(np.float32(self._learning_rate))

    @property
    def lr(self):
        """tf-keras's alias of learning_rate; Keras 3 has no such attribute (assigning one only
        sets a plain attribute, as on any Python object)."""
        from sim.keras.version import keras_major
        if keras_major() == 3 and not self._legacy:
            if "_plain_lr" in self.__dict__:
                return self._plain_lr
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'lr'")
        return self.learning_rate

    @lr.setter
    def lr(self, value):
        from sim.keras.version import keras_major
        if keras_major() == 3 and not self._legacy:
            self._plain_lr = value
        else:
            self.learning_rate = value

    def _current_lr(self, step: int):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            lr = lr.value(step)
            self._applied_rate = np.float32(lr)
        elif callable(lr):
            lr = backend.get_value(lr())
        elif self._rate_variable is not None:
            lr = self._rate_variable.numpy()   # a learner may have assigned to it
        lr = float(np.float32(lr))             # TensorFlow keeps the rate in float32
        if self._decay:
            lr = lr / (1.0 + self._decay * step)
        return lr

    @property
    def iterations(self):
        if self._iterations is None:
            self._iterations = tf.Variable(   # optimizer_v2 calls it 'SGD/iter:0'
                np.int64(0), trainable=False,
                name=f"{self.name}/iter" if self._legacy else "iteration", dtype=tf.int64,
                aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
            if keras_major() == 3:   # 'iteration', printed <Variable path=sgd/iteration, ...>
                as_keras3(self._iterations, "iteration", f"{self._path_name}/iteration")
        return self._iterations

    @iterations.setter
    def iterations(self, value):
        self.iterations.assign(value)

    @property
    def variables(self):
        """``iteration``, then (Keras 3, for a float rate) ``learning_rate``, then the slots."""
        rate_variable = []
        if keras_major() == 3 and not self._legacy and not callable(self._learning_rate):
            rate_variable = [self.learning_rate]
        return _VariablesList([self.iterations] + rate_variable + list(self._slot_vars))

    def _checkpoint_dependencies(self):
        return checkpoint_names.dependencies(self)

    def get_weights(self):
        return [np.asarray(backend.get_value(v)) for v in self.variables]

    def set_weights(self, weights):
        params = self.variables
        if len(params) != len(weights):
            raise ValueError(_errors.msg("optimizer_weights_mismatch", got=len(weights),
                                         expected=len(params)))
        for v, w in zip(params, weights):
            v.assign(np.asarray(w))

    # ------------------------------------------------------------ slots

    def build(self, var_list):
        """Create the slot variables of every new variable (in the variable's strategy)."""
        self.iterations  # noqa: B018  (created in the current scope)
        built = []   # the new variables' slots, listed in ``variables`` in Keras's order
        for var in var_list:
            if id(var) in self._slots:
                continue
            strategy = du.get_strategy()
            if not strategy.extended.variable_created_in_scope(var):
                raise ValueError(_errors.msg("slot_scope", _SLOT_SCOPE_TEXT.format(strategy, var)))
            slots = {}
            for slot in self._slot_names:
                name = self._slot_variable_name(var, slot)
                with strategy.extended.colocate_vars_with(var):   # a slot lives with its variable
                    sv = tf.Variable(np.zeros(tuple(var.shape), dtype=np.dtype(var.dtype.name)),
                                     trainable=False, name=name, dtype=var.dtype)
                if keras_major() == 3:
                    as_keras3(sv, name, f"{self._path_name}/{name}")
                slots[slot] = sv
            built.append(slots)
            self._slots[id(var)] = slots
            self._built_vars.append(var)
            # Map each local component to the matching slot component, so the update fn
            # (called once per mirror by extended.update) finds its own slot copy.
            comps = du.local_results(strategy, var)
            slot_comps = {k: du.local_results(strategy, sv) for k, sv in slots.items()}
            for i, c in enumerate(comps):
                if id(c) != id(var):
                    self._slots[id(c)] = {k: sc[min(i, len(sc) - 1)] for k, sc in slot_comps.items()}

        if self._slots_by_kind or self._legacy:   # every velocity, then every momentum...
            self._slot_vars.extend(slots[k] for k in self._slot_names for slots in built)
        else:                     # one variable's slots after another
            self._slot_vars.extend(slots[k] for slots in built for k in self._slot_names)
        if built:   # a checkpoint restored before the slots existed gives them their values
            deferred_restore.apply_pending()

    _slots_by_kind = False            # RMSprop (and every legacy optimizer) lists its slots by kind
    _keras3_slot_names: dict = {}     # sim's slot name -> Keras 3's, where they differ
    _tf_keras_slot_names: dict = {}   # ... -> tf-keras's
    _legacy_slot_names: dict = {}     # ... -> optimizer_v2's

    def _slot_variable_name(self, var, slot):
        return slot_variable_name(self, var, slot)

    def get_slot(self, var, slot_name):
        return self._slots[id(var)][slot_name]

    def get_slot_names(self):
        return list(self._slot_names)

    # ------------------------------------------------------------ applying gradients

    def minimize(self, loss, var_list, tape=None):
        var_list = list(var_list() if callable(var_list) and not isinstance(var_list, list) else var_list)
        if tape is None:
            with tf.GradientTape() as tape:
                loss = loss() if callable(loss) else loss
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def _clip(self, grads):
        if self.clipvalue is not None:
            grads = [tf.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.clipnorm is not None:
            grads = [tf.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm is not None:
            grads, _ = tf.clip_by_global_norm(grads, self.global_clipnorm)
        return list(grads)

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False, **kwargs):
        aggregate = not skip_gradients_aggregation and kwargs.pop("experimental_aggregate_gradients", True)
        grads_and_vars = tuple(grads_and_vars)
        # Keras 3 and tf-keras build the slots of every variable given, a gradient or not
        # (base_optimizer.apply, optimizer.apply_gradients); optimizer_v2 only those with one.
        every = None if self._legacy else [v for _, v in grads_and_vars]
        grads_and_vars = filter_empty_gradients(grads_and_vars)
        if not grads_and_vars:
            return self.iterations
        grads = [g for g, _ in grads_and_vars]
        variables = [v for _, v in grads_and_vars]
        if du.in_cross_replica_context():
            # Called outside strategy.run: no replicas to aggregate.
            grads = self._clip(grads)
            return self._distributed_apply(du.get_strategy(), list(zip(grads, variables)), every)
        ctx = du.get_replica_context()
        if aggregate and ctx.num_replicas_in_sync > 1:
            grads = utils.all_reduce_sum_gradients(grads_and_vars)
        grads = self._clip(grads)
        return ctx.merge_call(self._distributed_apply, args=(list(zip(grads, variables)), every))

    def _distributed_apply(self, strategy, grads_and_vars, every=None):
        """Cross-replica: build slots, then one ``extended.update`` per variable."""
        variables = every or [v for _, v in grads_and_vars]
        if any(id(v) not in self._slots for v in variables):
            self.build(variables)
        step = int(backend.get_value(self.iterations))
        lr = self._current_lr(step)
        self._prepare_step(step + 1)
        update = strategy.extended.update
        for g, v in grads_and_vars:
            update(v, self._apply_one, args=(g, lr), group=False)
        self.iterations.assign_add(1)
        return self.iterations

    def _prepare_step(self, t: int) -> None:
        """Per-step scalars shared by all variables (Adam's bias corrections)."""

    def _apply_one(self, var, grad, lr):
        if self.weight_decay:   # variable - variable * wd * lr, in the variable's dtype
            var.assign_sub(var * self.weight_decay * lr)
        self._update_step(var, grad, lr, self._slots[id(var)])

    def _update_step(self, var, grad, lr, slots):
        raise NotImplementedError

    # ------------------------------------------------------------ config

    def get_config(self):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            lr = schedules.serialize(lr)
        config = {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                  "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                  "clipvalue": self.clipvalue, "jit_compile": self.jit_compile,
                  "is_legacy_optimizer": False}
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("is_legacy_optimizer", None)
        lr = config.get("learning_rate")
        if isinstance(lr, dict):
            config["learning_rate"] = schedules.deserialize(lr)
        return cls(**config)
