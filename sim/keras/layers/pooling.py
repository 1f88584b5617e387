"""``MaxPooling2D``: the largest value of each pool_size window, per channel (``tf.nn.max_pool2d``).

``strides`` default to ``pool_size`` (windows side by side), as in Keras; no weights.
"""
from __future__ import annotations

import sim.tf as tf

from sim.keras.layers.base import Layer
from sim.keras.layers.convolutional import (check_image_rank, conv_output_length,
                                            normalize_data_format, normalize_padding,
                                            normalize_tuple)


class MaxPooling2D(Layer):
    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = normalize_tuple(pool_size, 2, "pool_size")
        self.strides = self.pool_size if strides is None else normalize_tuple(strides, 2, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self._tf_format = "NHWC" if self.data_format == "channels_last" else "NCHW"

    def build(self, input_shape):
        check_image_rank(self, tuple(input_shape))
        self.built = True

    def _check_input(self, inputs):
        check_image_rank(self, inputs)

    def call(self, inputs):
        return tf.nn.max_pool2d(inputs, ksize=list(self.pool_size), strides=list(self.strides),
                                padding=self.padding.upper(), data_format=self._tf_format)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        spatial = (1, 2) if self.data_format == "channels_last" else (2, 3)
        out = list(input_shape)
        for a, k, s in zip(spatial, self.pool_size, self.strides):
            out[a] = conv_output_length(input_shape[a], k, self.padding, s)
        return tuple(out)

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "strides": self.strides,
                       "padding": self.padding, "data_format": self.data_format})
        return config


MaxPool2D = MaxPooling2D
