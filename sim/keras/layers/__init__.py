"""``tf.keras.layers``."""
from __future__ import annotations

from sim.keras.layers.base import Layer
from sim.keras.layers.core import Activation, Dense, Dropout, Flatten, Lambda, Reshape
from sim.keras.layers.embedding import Embedding
from sim.keras.layers.input_layer import Input, InputLayer, KerasTensor

__all__ = ["Layer", "Dense", "Activation", "Dropout", "Flatten", "Lambda", "Reshape", "Embedding",
           "Input", "InputLayer", "KerasTensor"]
