"""RMSprop as Keras: ms = rho*ms + (1-rho)*g^2; with momentum (or the Keras 2.11+ optimizer)
the step is lr*g/sqrt(ms+eps); the legacy optimizer without momentum uses lr*g/(sqrt(ms)+eps)."""
from __future__ import annotations

import sim.tf as tf

from sim.keras.optimizers.optimizer import Optimizer


class RMSprop(Optimizer):
    _slots_by_kind = True   # Keras builds all velocities, then all momentums...
    _eps_outside_sqrt = False  # the legacy optimizer's non-momentum formula

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 name="RMSprop", **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.rho, self.momentum = float(rho), float(momentum)
        self.epsilon, self.centered = float(epsilon), bool(centered)
        names = ["velocity"]
        if self.momentum:
            names.append("momentum")
        if self.centered:
            names.append("average_gradient")
        self._slot_names = tuple(names)

    def _update_step(self, var, grad, lr, slots):
        ms = slots["velocity"]
        ms.assign(ms * self.rho + tf.square(grad) * (1.0 - self.rho))
        denom = ms
        if self.centered:
            mg = slots["average_gradient"]
            mg.assign(mg * self.rho + grad * (1.0 - self.rho))
            denom = ms - tf.square(mg)
        if self.momentum:
            mom = slots["momentum"]
            mom.assign(mom * self.momentum + grad * lr / tf.sqrt(denom + self.epsilon))
            var.assign_sub(mom)
        elif self._eps_outside_sqrt:
            var.assign_sub(grad * lr / (tf.sqrt(denom) + self.epsilon))
        else:
            var.assign_sub(grad * lr / tf.sqrt(denom + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config
