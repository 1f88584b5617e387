"""Core layers: Dense, Activation, Dropout, Flatten, Reshape, Lambda."""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import activations, backend, initializers, regularizers
from sim.keras.layers.base import Layer


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``; the kernel is (input_dim, units)."""
    _keras3_private_weights = ("kernel",)   # Keras 3: self._kernel (checkpoint names)


    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        if self.units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self._linear = self.activation is activations.linear

    def build(self, input_shape):
        last = input_shape[-1]
        if last is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. "
                             f"Found None. Full input shape received: {input_shape}")
        self.kernel = self.add_weight("kernel", (last, self.units), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None
        self._input_last_dim = int(last)
        self._min_ndim = 2
        self.built = True

    def call(self, inputs):
        if len(inputs.shape) == 2:
            y = tf.matmul(inputs, self.kernel)
        else:
            y = tf.tensordot(inputs, self.kernel, [[len(inputs.shape) - 1], [0]])
        if self.bias is not None:
            y = tf.nn.bias_add(y, self.bias)
        return y if self._linear else self.activation(y)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units, "activation": activations.serialize(self.activation),
                       "use_bias": self.use_bias})
        return config


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


class Dropout(Layer):
    """Zero a fraction ``rate`` of inputs during training and scale the rest by 1/(1-rate)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value "
                             f"between 0 and 1. Received: rate={rate}")
        self.rate = float(rate)
        self.noise_shape = noise_shape
        self.seed = seed
        self._gen = np.random.default_rng(seed) if seed is not None else None

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        shape = tuple(int(d) for d in inputs.shape)
        if self.noise_shape is not None:
            shape = tuple(s if n is None else n for s, n in zip(shape, self.noise_shape))
        gen = self._gen or backend.rng()
        keep = (gen.random(shape) >= self.rate).astype(inputs.dtype.name) / (1.0 - self.rate)
        return inputs * tf.constant(keep)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


class Flatten(Layer):
    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)

    def call(self, inputs):
        return tf.reshape(inputs, (-1, int(np.prod(inputs.shape[1:])) if len(inputs.shape) > 1 else 1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        n = None if any(d is None for d in rest) else int(np.prod(rest)) if rest else 1
        return (input_shape[0], n)


class Reshape(Layer):
    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        return tf.reshape(inputs, (-1,) + self.target_shape)

    def compute_output_shape(self, input_shape):
        shape = list(self.target_shape)
        if -1 in shape:
            known = int(np.prod([d for d in shape if d != -1]))
            shape[shape.index(-1)] = int(np.prod(input_shape[1:])) // known
        return (input_shape[0],) + tuple(shape)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config


class Lambda(Layer):
    """Wrap any function of tensors as a layer (no weights)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._given_output_shape = output_shape

    def call(self, inputs):
        return self.function(inputs, **self.arguments)

    def compute_output_shape(self, input_shape):
        if self._given_output_shape is not None:
            shape = self._given_output_shape
            return (input_shape[0],) + tuple(shape(input_shape)[1:] if callable(shape) else shape)
        return super().compute_output_shape(input_shape)
