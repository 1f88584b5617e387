"""Optimizer slot variable names, as the selected Keras writes them (checkpoints and weights
files match on them). Each optimizer says where its names differ from sim's own
(``_keras3_slot_names``, ``_tf_keras_slot_names``, ``_legacy_slot_names``)."""
from __future__ import annotations

from sim.keras.version import keras_major


def slot_variable_name(optimizer, var, slot):
    """The name of ``optimizer``'s slot ``slot`` for ``var``. Keras 3: 'sequential_dense_kernel_momentum' (the variable's path, or its name with '/'
    and ':' as '_'); tf-keras: 'SGD/m/dense/kernel'; legacy optimizer_v2: 'SGD/dense/kernel/momentum'."""
    shared = var.name.split(":")[0]
    if optimizer._legacy:
        return f"{optimizer.name}/{shared}/{optimizer._legacy_slot_names.get(slot, slot)}"
    if keras_major() == 3:
        path = getattr(var, "path", None)
        ref = path.replace("/", "_") if path else var.name.replace("/", "_").replace(":", "_")
        return f"{ref}_{optimizer._keras3_slot_names.get(slot, slot)}"
    return f"{optimizer.name}/{optimizer._tf_keras_slot_names.get(slot, slot)}/{shared}"


SLOT_SCOPE_TEXT = (
    "Trying to create optimizer slot variable under the scope for tf.distribute.Strategy ({}), "
    "which is different from the scope used for the original variable ({}). Make sure the slot "
    "variables are created under the same strategy scope. This may happen if you're restoring "
    "from a checkpoint outside the scope."
)
