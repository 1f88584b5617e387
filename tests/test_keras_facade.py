"""tf.keras's facade modules show TensorFlow's names, not sim.keras's imports."""
import types

import pytest

import sim.tf as tf

MODULES = ["activations", "backend", "callbacks", "initializers", "layers", "losses", "metrics",
           "models", "regularizers", "utils"]


@pytest.mark.parametrize("name", MODULES)
def test_no_module_or_private_name_leaks(name):
    module = getattr(tf.keras, name)
    leaked = [n for n, v in vars(module).items()
              if not n.startswith("__") and (isinstance(v, types.ModuleType) or n.startswith("_"))]
    assert leaked == []


def test_the_guides_names_are_there():
    assert tf.keras.layers.Dense and tf.keras.losses.SparseCategoricalCrossentropy
    assert tf.keras.optimizers.legacy.SGD and tf.keras.callbacks.BackupAndRestore
    from sim.tf.keras import layers  # noqa: F401  (the import style of the guides)
