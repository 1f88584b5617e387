"""``tf.keras.optimizers``: SGD, Adam, RMSprop, Adagrad, schedules, legacy, get()."""
from __future__ import annotations

from sim.keras import _errors
from sim.keras.optimizers import legacy, schedules
from sim.keras.optimizers.adagrad import Adagrad
from sim.keras.optimizers.adam import Adam
from sim.keras.optimizers.optimizer import Optimizer
from sim.keras.optimizers.rmsprop import RMSprop
from sim.keras.optimizers.sgd import SGD

_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad}


def get(identifier):
    """An optimizer from a name ("adam", "sgd"...), a class or an instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Optimizer):
        return identifier()
    if isinstance(identifier, dict):
        cls = _BY_NAME.get(str(identifier.get("class_name")).lower())
        if cls is not None:
            return cls.from_config(identifier.get("config", {}))
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(_errors.msg(
        "unknown_name", f"Could not interpret optimizer identifier: {identifier}",
        kind="optimizer", name=identifier, known=_errors.known_list(_BY_NAME)))


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config):
    return get(config)


__all__ = ["SGD", "Adam", "RMSprop", "Adagrad", "Optimizer", "legacy", "schedules", "get",
           "serialize", "deserialize"]
