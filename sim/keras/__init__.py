"""The ``tf.keras`` subset, written against ``sim.tf``'s TensorFlow names so it runs unchanged
under any tf.distribute strategy. Learners reach it as ``tf.keras`` (sim/tf/keras)."""
from __future__ import annotations

from sim.keras import (activations, backend, callbacks, datasets, initializers, layers, losses,
                       metrics, optimizers, regularizers, utils)
from sim.keras import models
from sim.keras.layers import Input
from sim.keras.models import Model, Sequential

__version__ = "2.15.0"  # the Keras 2 (tf-keras) behaviour followed

__all__ = ["activations", "backend", "callbacks", "datasets", "initializers", "layers", "losses",
           "metrics",
           "models", "optimizers", "regularizers", "utils", "Input", "Model", "Sequential"]
