"""SGD with momentum and Nesterov, exactly Keras' update: v = m*v - lr*g; w += v."""
from __future__ import annotations

from sim.keras.optimizers.optimizer import Optimizer


class SGD(Optimizer):
    _tf_keras_slot_names = {"momentum": "m"}   # 'SGD/m/dense/kernel:0'

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError("`momentum` must be between [0, 1].")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)
        self._slot_names = ("momentum",) if self.momentum else ()

    def _update_step(self, var, grad, lr, slots):
        if not self.momentum:
            var.assign_sub(grad * lr)
            return
        m = slots["momentum"]
        m.assign(m * self.momentum - grad * lr)
        if self.nesterov:
            var.assign_add(m * self.momentum - grad * lr)
        else:
            var.assign_add(m)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
