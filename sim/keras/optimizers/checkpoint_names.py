"""The names an optimizer's variables have in a ``tf.train.Checkpoint``, as each Keras gives them.

tf-keras's optimizer (measured on TF 2.21, the checkpoint guide): ``optimizer/_iterations``,
``optimizer/_learning_rate`` (a float rate's variable) and ``optimizer/_variables/N`` (N from 1:
the slots; 0 is the iterations, already named). Others: sim's names (iterations, rate_variable,
slot_vars/N).
"""
from __future__ import annotations

from sim.keras.version import keras_major


def dependencies(optimizer):
    """What a checkpoint reaches through the optimizer: its own variables, never the model's
    (it keeps a list of those it built slots for)."""
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
