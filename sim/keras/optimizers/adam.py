"""Adam as Keras 2 writes it (epsilon-hat form): lr_t = lr*sqrt(1-b2^t)/(1-b1^t),
m = b1*m + (1-b1)*g, v = b2*v + (1-b2)*g^2, w -= lr_t*m/(sqrt(v)+eps); amsgrad keeps max v."""
from __future__ import annotations

import math

import sim.tf as tf

from sim.keras.optimizers.optimizer import Optimizer


class Adam(Optimizer):
    _keras3_slot_names = {"m": "momentum", "v": "velocity", "vhat": "velocity_hat"}
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 name="Adam", **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2 = float(beta_1), float(beta_2)
        self.epsilon = float(epsilon)
        self.amsgrad = bool(amsgrad)
        self._slot_names = ("m", "v", "vhat") if amsgrad else ("m", "v")
        self._correction = 1.0

    def _prepare_step(self, t):
        self._correction = math.sqrt(1.0 - self.beta_2 ** t) / (1.0 - self.beta_1 ** t)

    def _update_step(self, var, grad, lr, slots):
        m, v = slots["m"], slots["v"]
        m.assign_add((grad - m) * (1.0 - self.beta_1))
        v.assign_add((tf.square(grad) - v) * (1.0 - self.beta_2))
        denom_v = v
        if self.amsgrad:
            vhat = slots["vhat"]
            vhat.assign(tf.maximum(vhat, v))
            denom_v = vhat
        var.assign_sub((m * (lr * self._correction)) / (tf.sqrt(denom_v) + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config
