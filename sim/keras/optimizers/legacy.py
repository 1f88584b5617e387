"""``tf.keras.optimizers.legacy``: the Keras 2 ``optimizer_v2`` names the guide uses.

Same updates as the new optimizers except the legacy RMSprop without momentum, which adds
epsilon outside the square root; legacy optimizers also accept ``decay`` and ``lr``. Keras 3 has
none: making one raises its ImportError (tf-keras, ``TF_USE_LEGACY_KERAS=1``, is needed).
"""
from __future__ import annotations

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

    def get_config(self):
        return _legacy_config(self, super().get_config())


class Adagrad(adagrad.Adagrad):
    _legacy = True

    def get_config(self):
        return _legacy_config(self, super().get_config())
