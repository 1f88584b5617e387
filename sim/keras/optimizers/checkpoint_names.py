"""The names an optimizer's variables have in a ``tf.train.Checkpoint``, as each Keras gives them.

tf-keras's optimizer (measured on TF 2.21, the checkpoint guide): ``optimizer/_iterations``,
``optimizer/_learning_rate`` (a float rate's variable) and ``optimizer/_variables/N`` (N from 1:
the slots; 0 is the iterations, already named). Keras 3's (measured there too, Keras 3.15,
keras/src/optimizers/base_optimizer.py): the same ``_iterations`` and ``_learning_rate``,
``_variables/N`` with N from 2 (0 and 1 are the iterations and the rate, ``_track_variable``'d
first), and ``_trainable_variables/N``, the variables it built slots for (a model's variable is
found there when the checkpoint does not reach it through the model first). Legacy: sim's
names (iterations, rate_variable, slot_vars/N).
"""
from __future__ import annotations

from sim.keras.version import keras_major
from sim.storage import tracking


def dependencies(optimizer):
    """What a checkpoint reaches through the optimizer: its own variables, and under Keras 3
    the list of those it built slots for."""
    if keras_major() == 3 and not optimizer._legacy:
        deps = {"_iterations": optimizer.iterations}
        rate = [] if callable(optimizer._learning_rate) else [optimizer.learning_rate]
        if rate:
            deps["_learning_rate"] = rate[0]
        deps["_trainable_variables"] = tracking.Later(list(optimizer._built_vars))
        deps["_variables"] = [optimizer.iterations] + rate + list(optimizer._slot_vars)
        return deps
    if keras_major() != 2 or optimizer._legacy:
        deps = {"iterations": optimizer.iterations}
        if optimizer._rate_variable is not None:
            deps["rate_variable"] = optimizer._rate_variable
        deps["slot_vars"] = list(optimizer._slot_vars)
        return deps
    deps = {"_iterations": optimizer.iterations}
    if not callable(optimizer._learning_rate):
        deps["_learning_rate"] = optimizer.learning_rate
    deps["_variables"] = [optimizer.iterations] + list(optimizer._slot_vars)
    return deps
