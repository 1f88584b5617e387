"""``tf.keras.layers``."""
from __future__ import annotations

from sim.keras.layers.base import Layer
from sim.keras.layers.convolutional import Conv2D, Convolution2D
from sim.keras.layers.core import Activation, Dense, Dropout, Flatten, Lambda, Reshape
from sim.keras.layers.embedding import Embedding
from sim.keras.layers.input_layer import Input, InputLayer, KerasTensor
from sim.keras.layers.pooling import MaxPool2D, MaxPooling2D
from sim.keras.layers.string_lookup import StringLookup
from sim.keras.layers import tf_op_layer as _tf_op_layer  # noqa: F401  (tf ops on KerasTensors)

__all__ = ["Layer", "Dense", "Activation", "Dropout", "Flatten", "Lambda", "Reshape", "Embedding",
           "Input", "InputLayer", "KerasTensor", "Conv2D", "Convolution2D", "MaxPooling2D",
           "MaxPool2D", "StringLookup"]


class experimental:
    """``tf.keras.layers.experimental``: the older home of the preprocessing layers."""

    class preprocessing:
        StringLookup = StringLookup
