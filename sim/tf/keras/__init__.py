"""``tf.keras``: TensorFlow's names over sim.keras (no logic here)."""
from sim.keras import Input, Model, Sequential, __version__  # noqa: F401
from sim.tf.keras import (activations, backend, callbacks, datasets, initializers,  # noqa: F401
                          layers, losses, metrics, mixed_precision, models, optimizers,
                          regularizers, utils)
from sim.tf._lazy import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("sim.tf.keras")
