"""Embedding: integer ids -> rows of a trainable (input_dim, output_dim) table."""
from __future__ import annotations

import sim.tf as tf

from sim.keras import initializers, regularizers
from sim.keras.layers.base import Layer


class Embedding(Layer):
    _keras3_private_weights = ("embeddings",)   # Keras 3: self._embeddings (checkpoint names)
    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None, embeddings_constraint=None,
                 mask_zero=False, input_length=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.mask_zero = mask_zero
        self._output_dtype = self.compute_dtype   # float16 under mixed_float16, as Keras

    def build(self, input_shape=None):
        self.embeddings = self.add_weight("embeddings", (self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer)
        self.built = True

    def __call__(self, inputs, *args, **kwargs):
        # Ids are not cast to the float dtype (Layer.__call__ autocasts floats only).
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = tf.cast(inputs, tf.int32)
        return tf.nn.embedding_lookup(self.embeddings, inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def get_config(self):
        config = super().get_config()
        config.update({"input_dim": self.input_dim, "output_dim": self.output_dim,
                       "mask_zero": self.mask_zero})
        return config
