"""Loss reduction (tf-keras losses_utils): ``Reduction`` and how weighted losses become one value.

Per-example losses are weighted, then reduced: NONE keeps them, SUM adds them,
SUM_OVER_BATCH_SIZE (= AUTO) divides the sum by the number of elements.
``scale_loss_for_distribution`` is the 1/N a custom loop applies under N > 1 replicas, because
the gradients are SUM all-reduced (§4.3).
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import distribute_utils


class Reduction:
    """``tf.keras.losses.Reduction`` (ReductionV2)."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


# Keras 3's reductions (its Loss takes strings; "auto" is gone): "mean" is sum_over_batch_size,
# "mean_with_sample_weight" divides by the sum of the sample weights, None is "none".
MEAN_WITH_SAMPLE_WEIGHT = "mean_with_sample_weight"
_KERAS3_TEXT = "{None, 'none', 'sum', 'sum_over_batch_size', 'mean_with_sample_weight', 'mean'}"
_KERAS3 = (None, Reduction.NONE, Reduction.SUM, Reduction.SUM_OVER_BATCH_SIZE,
           MEAN_WITH_SAMPLE_WEIGHT, "mean")


class _Default:
    """A loss constructor's default reduction: 'sum_over_batch_size' under Keras 3, 'auto' under
    tf-keras (resolved when the loss is made, sim/keras/version.py)."""

    def __repr__(self):
        return "<the selected Keras's default>"


DEFAULT = _Default()


def resolve_reduction(reduction):
    """The reduction a loss keeps, validated by the selected Keras's rules."""
    from sim.keras.version import keras_major
    if keras_major() == 3:
        if reduction is DEFAULT:
            return Reduction.SUM_OVER_BATCH_SIZE
        if reduction not in _KERAS3:
            raise ValueError("Invalid value for argument `reduction`. Expected one of "
                             f"{_KERAS3_TEXT}. Received: reduction={reduction}")
        return reduction
    reduction = Reduction.AUTO if reduction is DEFAULT else reduction
    Reduction.validate(reduction)
    return reduction


def canonical(reduction):
    """One of NONE, SUM, SUM_OVER_BATCH_SIZE, MEAN_WITH_SAMPLE_WEIGHT (AUTO and "mean" are the
    per-element mean, None is NONE)."""
    if reduction is None:
        return Reduction.NONE
    if reduction in (Reduction.AUTO, "mean"):
        return Reduction.SUM_OVER_BATCH_SIZE
    return reduction


def _rank(x):
    return len(x.shape)


def _tensor(x, dtype=None):
    if dtype is None:
        return tf.convert_to_tensor(x)
    return tf.cast(x, dtype) if hasattr(x, "dtype") and not isinstance(x, np.ndarray) else \
        tf.convert_to_tensor(np.asarray(x), dtype=dtype)


def squeeze_or_expand(y_pred, y_true):
    """Make (batch,) and (batch, 1) agree, as tf-keras' squeeze_or_expand_dimensions."""
    rp, rt = _rank(y_pred), _rank(y_true)
    if rp - rt == 1 and y_pred.shape[-1] == 1:
        y_pred = tf.squeeze(y_pred, axis=-1)
    elif rt - rp == 1 and y_true.shape[-1] == 1:
        y_true = tf.squeeze(y_true, axis=-1)
    return y_pred, y_true


def _num_elements(x) -> int:
    return int(np.prod(tuple(int(d) for d in x.shape))) if len(x.shape) else 1


def reduce_weighted_loss(losses, reduction):
    if reduction == Reduction.NONE:
        return losses
    total = tf.reduce_sum(losses)
    if reduction == Reduction.SUM:
        return total
    n = _num_elements(losses)
    return total / float(n) if n else total * 0.0


def compute_weighted_loss(losses, sample_weight=None, reduction=Reduction.SUM_OVER_BATCH_SIZE):
    losses = tf.convert_to_tensor(losses)
    if sample_weight is not None:
        sw = _tensor(sample_weight, losses.dtype)
        if _rank(sw) == _rank(losses) + 1 and sw.shape[-1] == 1:
            sw = tf.squeeze(sw, axis=-1)
        while _rank(sw) < _rank(losses) and _rank(sw) > 0:
            sw = tf.expand_dims(sw, -1)
        losses = losses * sw
    if reduction == Reduction.AUTO:
        reduction = Reduction.SUM_OVER_BATCH_SIZE
    return reduce_weighted_loss(losses, reduction)


def scale_loss_for_distribution(loss_value):
    """Multiply by 1/N when N > 1 replicas (tf-keras losses_utils)."""
    n = distribute_utils.get_strategy().num_replicas_in_sync
    return loss_value * (1.0 / n) if n > 1 else loss_value
