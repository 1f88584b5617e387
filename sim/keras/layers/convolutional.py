"""``Conv2D``: ``activation(conv2d(inputs, kernel) + bias)`` over images, as tf.keras writes it.

The kernel is (kernel_h, kernel_w, in_channels, filters), created on the first call (or at once
when the layer is given ``input_shape=``), so a strategy scope mirrors it like any weight. The
work is ``tf.nn.conv2d`` (sim/engine/ops/conv.py), which counts its FLOPs for the simulated step
time. Arguments are checked and normalised with Keras' own rules and messages (the helpers below
are shared with the pooling layers).
"""
from __future__ import annotations

import sim.tf as tf

from sim import i18n
from sim.keras import activations, initializers, regularizers
from sim.keras.layers.base import Layer
from sim.keras.layers.call_inputs import _fmt_shape, shape_tuple


def normalize_tuple(value, n, name, allow_zero=False):
    """An int or an n-tuple of ints as an n-tuple (Keras' conv_utils.normalize_tuple)."""
    error = f"The `{name}` argument must be a tuple of {n} integers. Received {name}={value}"
    try:
        values = (int(value),) * n if not hasattr(value, "__len__") else tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(error) from None
    if len(values) != n:
        raise ValueError(error)
    bad = {v for v in values if v < 0 or (v == 0 and not allow_zero)}
    if bad:
        rule = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{error} including {bad} that does not satisfy the requirement "
                         f"`{rule}`.")
    return values


def normalize_padding(value):
    padding = value.lower() if isinstance(value, str) else value
    if padding not in ("valid", "same"):
        raise ValueError('The `padding` argument must be a list/tuple or one of "valid", "same" '
                         f'(or "causal", only for `Conv1D). Received: {value}')
    return padding


def normalize_data_format(value):
    data_format = "channels_last" if value is None else str(value).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {value}')
    return data_format


def conv_output_length(size, k, padding, stride):
    """One spatial output size (None stays None): valid drops partial windows, same rounds up."""
    if size is None:
        return None
    size = size - k + 1 if padding == "valid" else size
    return (size + stride - 1) // stride


def check_image_rank(layer, inputs, rule="ndim"):
    """A 2-D image layer takes (batch, height, width, channels): say so when the rank is wrong
    (the classic miss: MNIST's (N, 28, 28) without its channel axis). ``rule`` is Keras' input
    spec: pooling wants ``ndim=4``, a convolution ``min_ndim=4``."""
    shape = shape_tuple(inputs) if hasattr(inputs, "shape") else tuple(inputs)
    if len(shape) < 4 or (rule == "ndim" and len(shape) != 4):
        raise ValueError(
            f'Input 0 of layer "{layer.name}" is incompatible with the layer: expected {rule}=4, '
            f"found ndim={len(shape)}. Full shape received: {_fmt_shape(shape)}\n"
            + i18n.t("conv.min_ndim", layer=type(layer).__name__, ndim=len(shape)))


class Conv2D(Layer):
    """2-D convolution; ``padding`` "valid" or "same", ``data_format`` channels_last (default)
    or channels_first. ``dilation_rate`` and ``groups`` other than 1 are not simulated."""
    _keras3_private_weights = ("kernel",)   # Keras 3: self._kernel (checkpoint names)


    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if filters is not None and not isinstance(filters, int):
            filters = int(filters)
        if filters is None or filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly positive "
                             f"value. Received filters={filters}.")
        self.filters = filters
        self.kernel_size = normalize_tuple(kernel_size, 2, "kernel_size")
        self.strides = normalize_tuple(strides, 2, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, 2, "dilation_rate")
        if self.dilation_rate != (1, 1) or groups != 1:
            from sim.engine.errors import unsupported
            raise unsupported("tf.keras.layers.Conv2D(dilation_rate=..., groups=...) other than 1")
        self.groups = 1
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self._tf_format = "NHWC" if self.data_format == "channels_last" else "NCHW"

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        check_image_rank(self, input_shape, "min_ndim")
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_shape "
                             f"received is {input_shape}, where axis {self._channel_axis()} (0-based) "
                             "is the channel dimension, which found to be `None`.")
        self.kernel = self.add_weight("kernel", self.kernel_size + (int(channels), self.filters),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.bias = self.add_weight("bias", (self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None
        if self.data_format == "channels_last":
            self._input_last_dim = int(channels)
        self.built = True

    def _check_input(self, inputs):
        check_image_rank(self, inputs, "min_ndim")
        super()._check_input(inputs)

    def call(self, inputs):
        y = tf.nn.conv2d(inputs, self.kernel, strides=list(self.strides),
                         padding=self.padding.upper(), data_format=self._tf_format)
        if self.bias is not None:
            bias = self.bias if self.data_format == "channels_last" else \
                tf.reshape(self.bias, (self.filters, 1, 1))
            y = y + bias
        return self.activation(y)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        spatial = (1, 2) if self.data_format == "channels_last" else (2, 3)
        h, w = (conv_output_length(input_shape[a], k, self.padding, s)
                for a, k, s in zip(spatial, self.kernel_size, self.strides))
        if self.data_format == "channels_last":
            return (input_shape[0], h, w, self.filters)
        return (input_shape[0], self.filters, h, w)

    def get_config(self):
        config = super().get_config()
        config.update({"filters": self.filters, "kernel_size": self.kernel_size,
                       "strides": self.strides, "padding": self.padding,
                       "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                       "groups": self.groups, "activation": activations.serialize(self.activation),
                       "use_bias": self.use_bias})
        return config


Convolution2D = Conv2D
