"""Adagrad: acc += g^2; w -= lr*g/sqrt(acc+eps) (initial accumulator 0.1, as Keras)."""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras.optimizers.optimizer import Optimizer


class Adagrad(Optimizer):
    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.epsilon = float(epsilon)
        self._slot_names = ("accumulator",)

    def build(self, var_list):
        new = [v for v in var_list if id(v) not in self._slots]
        super().build(var_list)
        for v in new:
            acc = self._slots[id(v)]["accumulator"]
            acc.assign(np.full(tuple(acc.shape), self.initial_accumulator_value,
                               dtype=np.dtype(acc.dtype.name)))

    def _update_step(self, var, grad, lr, slots):
        acc = slots["accumulator"]
        acc.assign_add(tf.square(grad))
        var.assign_sub(grad * lr / tf.sqrt(acc + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value,
                       "epsilon": self.epsilon})
        return config
