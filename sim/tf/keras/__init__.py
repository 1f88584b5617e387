"""``tf.keras``: TensorFlow's names over sim.keras (no logic here)."""
from sim.keras import Input, Model, Sequential, __version__  # noqa: F401
from sim.tf.keras import (activations, backend, callbacks, initializers, layers, losses,  # noqa: F401
                          metrics, models, optimizers, regularizers, utils)
