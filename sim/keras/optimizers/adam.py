"""Adam as Keras writes it (epsilon-hat form): alpha = lr*sqrt(1-b2^t)/(1-b1^t),
m += (g-m)*(1-b1), v += (g^2-v)*(1-b2), w -= (m*alpha)/(sqrt(v)+eps); amsgrad keeps max v.

All in the variable's dtype (float32), as keras/src/optimizers/adam.py and tf-keras's adam.py:
b1^t and b2^t are float32 powers of float32 betas and alpha is float32 arithmetic. The legacy
optimizer (ResourceApplyAdam's kernel) also takes 1-b1 and 1-b2 in float32 from float32 betas.
"""
from __future__ import annotations

import numpy as np

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
        self._step = 1

    def _prepare_step(self, t):
        self._step = t

    def _one_minus(self, beta, dt):
        if self._legacy:    # the fused kernel: T(1) - beta1() in the variable's type
            return dt.type(1) - dt.type(beta)
        return 1.0 - beta   # Python's float, converted to float32 by the multiply

    def _update_step(self, var, grad, lr, slots):
        m, v = slots["m"], slots["v"]
        dt = np.dtype(var.dtype.name) if var.dtype.name != "bfloat16" else np.float32
        step = dt.type(self._step)   # beta ** (iterations + 1), cast to the variable's dtype
        b1_power, b2_power = np.power(dt.type(self.beta_1), step), np.power(dt.type(self.beta_2), step)
        one = dt.type(1)
        alpha = dt.type(lr) * np.sqrt(one - b2_power) / (one - b1_power)
        m.assign_add((grad - m) * self._one_minus(self.beta_1, dt))
        v.assign_add((tf.square(grad) - v) * self._one_minus(self.beta_2, dt))
        denom_v = v
        if self.amsgrad:
            vhat = slots["vhat"]
            vhat.assign(tf.maximum(vhat, v))
            denom_v = vhat
        var.assign_sub((m * alpha) / (tf.sqrt(denom_v) + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config
