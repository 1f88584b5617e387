"""``tf.nn``: activations, cross-entropies, dropout, conv2d and max_pool2d; loss scaling from sim.distribute."""
from __future__ import annotations

from sim.engine.ops.conv import conv2d, max_pool2d  # noqa: F401
from sim.engine.ops.math import sigmoid, softplus, tanh  # noqa: F401
from sim.engine.ops.nn import (bias_add, dropout, elu, embedding_lookup, gelu,  # noqa: F401
                               l2_loss, leaky_relu, log_softmax, moments, relu, relu6, selu,
                               sigmoid_cross_entropy_with_logits, silu, softmax,
                               softmax_cross_entropy_with_logits, softsign,
                               sparse_softmax_cross_entropy_with_logits, swish)
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.nn", (), {
    "compute_average_loss": "sim.distribute:compute_average_loss",
    "scale_regularization_loss": "sim.distribute:scale_regularization_loss",
})
