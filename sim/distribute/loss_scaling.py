"""``tf.nn.compute_average_loss`` and ``tf.nn.scale_regularization_loss``.

Gradients are SUM-all-reduced across replicas, so each replica must scale its loss by the
*global* batch size: then the sum of the replicas' gradients is the gradient of the global
mean (tf_distribute_semantics.md §4.3). Follows TensorFlow's nn_impl_distribute.py (>= 2.13):
``div_no_nan``, so an empty replica batch gives 0, not NaN.
"""
from __future__ import annotations

import numpy as np

from sim.distribute import _ops, context
from sim.distribute.errors import explain


def _num_replicas():
    ctx = context.get_replica_context()
    if ctx is not None:
        return ctx.num_replicas_in_sync
    return context.get_strategy().num_replicas_in_sync


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """Scale per-example losses by ``sample_weight`` and divide their sum by the global batch size."""
    from sim.engine.tensor import convert_to_tensor
    per_example_loss = convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    if per_example_loss.ndim < 1:
        raise ValueError(explain(
            f"Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
            f"Received shape {tuple(per_example_loss.shape)}", "loss_rank"))
    if sample_weight is not None:
        from sim.engine.ops.math import multiply
        sample_weight = convert_to_tensor(sample_weight)
        if sample_weight.dtype != input_dtype:
            sample_weight = _ops.cast(sample_weight, input_dtype)
        per_example_loss = multiply(per_example_loss, sample_weight)
    if global_batch_size is None:
        if context.has_strategy() and context.in_cross_replica_context():
            raise RuntimeError(explain(
                "You are calling `compute_average_loss` in cross replica context, while it was "
                "expected to be called in replica context.", "loss_cross_replica",
                fn="compute_average_loss"))
        global_batch_size = _ops.to_numpy(per_example_loss).shape[0] * _num_replicas()
    gbs = np.asarray(_ops.to_numpy(global_batch_size))
    if gbs.ndim != 0:
        raise ValueError(explain("global_batch_size must be scalar.", "loss_gbs_scalar"))
    if gbs.dtype.kind not in "iu":
        raise TypeError(explain("global_batch_size must be an integer.", "loss_gbs_int"))
    if gbs < 0:
        raise ValueError(explain("global_batch_size must be non-negative.", "loss_gbs_negative"))
    total = _ops.reduce_sum(per_example_loss)
    if int(gbs) == 0:
        return _ops.multiply(total, _ops.constant(0, input_dtype.name))  # div_no_nan
    return _ops.truediv(total, _ops.constant(int(gbs), input_dtype.name))


def scale_regularization_loss(regularization_loss):
    """Sum the regularization losses and divide by the number of replicas (they count once)."""
    if context.has_strategy() and context.in_cross_replica_context():
        raise RuntimeError(explain(
            "You are calling `scale_regularization_loss` in cross replica context, while it was "
            "expected to be called in replica context.", "loss_cross_replica",
            fn="scale_regularization_loss"))
    from sim.engine.tensor import convert_to_tensor
    loss = _ops.reduce_sum(convert_to_tensor(regularization_loss))
    return _ops.truediv(loss, _ops.constant(_num_replicas(), loss.dtype.name))
