"""SGD with momentum and Nesterov, exactly Keras' update: v = m*v - lr*g; w += v."""
from __future__ import annotations

from sim.keras.optimizers.optimizer import Optimizer
from sim.keras.version import keras_major


class SGD(Optimizer):
    _tf_keras_slot_names = {"momentum": "m"}   # 'SGD/m/dense/kernel:0'

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError("`momentum` must be between [0, 1].")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)
        # tf-keras's SGD makes its 'm' slot even without momentum (unused then); Keras 3's and
        # the legacy one's only with momentum
        tf_keras_always = keras_major() == 2 and not self._legacy
        self._slot_names = ("momentum",) if self.momentum or tf_keras_always else ()

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
