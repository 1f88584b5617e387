"""``tf.keras.optimizers.legacy``: the Keras 2 ``optimizer_v2`` names the guide uses.

Same updates as the new optimizers except the legacy RMSprop without momentum, which adds
epsilon outside the square root; legacy optimizers also accept ``decay`` and ``lr``. Keras 3 has
none: making one raises its ImportError (tf-keras, ``TF_USE_LEGACY_KERAS=1``, is needed).
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras.optimizers import adagrad, adam, optimizer, rmsprop, sgd


class Optimizer(optimizer.Optimizer):
    _legacy = True


def _legacy_config(self, config):
    config["is_legacy_optimizer"] = True
    config["decay"] = self._decay
    return config


class SGD(sgd.SGD):
    _legacy = True
    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(learning_rate, momentum, nesterov, name, **kwargs)

    def get_config(self):
        return _legacy_config(self, super().get_config())


class Adam(adam.Adam):
    _legacy = True
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 name="Adam", **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name, **kwargs)

    def get_config(self):
        return _legacy_config(self, super().get_config())


class RMSprop(rmsprop.RMSprop):
    _legacy_slot_names = {"velocity": "rms", "average_gradient": "mg"}
    _legacy = True
    _eps_outside_sqrt = True

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 name="RMSprop", **kwargs):
        super().__init__(learning_rate, rho, momentum, epsilon, centered, name, **kwargs)

    def _update_step(self, var, grad, lr, slots):
        """optimizer_v2's rmsprop.py: 1 - rho is a float32 subtraction of the float32 rho; with
        momentum, the fused ResourceApply(Centered)RMSProp kernel: ms += (g^2 - ms)(1 - rho),
        mom = mom*momentum + g*lr/sqrt(ms [- mg^2] + eps)."""
        dt = np.dtype(var.dtype.name) if var.dtype.name != "bfloat16" else np.float32
        rho, one_minus = dt.type(self.rho), dt.type(1) - dt.type(self.rho)
        ms = slots["velocity"]
        if not self.momentum:
            ms.assign(ms * rho + tf.square(grad) * one_minus)
            denom = ms
            if self.centered:
                mg = slots["average_gradient"]
                mg.assign(mg * rho + grad * one_minus)
                denom = ms - tf.square(mg)
            var.assign_sub(grad * lr / (tf.sqrt(denom) + self.epsilon))
            return
        ms.assign_add((tf.square(grad) - ms) * one_minus)
        denom = ms
        if self.centered:
            mg = slots["average_gradient"]
            mg.assign_add((grad - mg) * one_minus)
            denom = ms - tf.square(mg)
        mom = slots["momentum"]
        mom.assign(mom * self.momentum + grad * lr / tf.sqrt(denom + self.epsilon))
        var.assign_sub(mom)

    def get_config(self):
        return _legacy_config(self, super().get_config())


class Adagrad(adagrad.Adagrad):
    _legacy = True

    def get_config(self):
        return _legacy_config(self, super().get_config())
