"""Top-k accuracies: is the true class among the ``k`` highest predictions?

TensorFlow's ``in_top_k`` rule decides ties: the target is in the top k when fewer than k
classes score strictly higher than it (so a tie at the boundary counts as a hit), and a
non-finite score is never a hit.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import backend
from sim.keras.metrics import MeanMetricWrapper


def in_top_k(targets, predictions, k):
    """``tf.math.in_top_k``: a bool per row, TensorFlow's tie rule."""
    scores = np.asarray(backend.get_value(tf.convert_to_tensor(predictions)), np.float64)
    targets = np.asarray(backend.get_value(tf.convert_to_tensor(targets))).astype(np.int64)
    rows = scores.reshape(-1, scores.shape[-1])
    target = targets.reshape(-1)
    valid = (target >= 0) & (target < rows.shape[-1])
    score = rows[np.arange(len(rows)), np.clip(target, 0, rows.shape[-1] - 1)]
    higher = (rows > score[:, None]).sum(-1)
    hit = valid & np.isfinite(score) & np.isfinite(rows).all(-1) & (higher < k)
    return hit.reshape(targets.shape)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    true = np.argmax(np.asarray(backend.get_value(tf.convert_to_tensor(y_true))), axis=-1)
    return tf.constant(in_top_k(true, y_pred, k).astype(backend.floatx()))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_true = np.asarray(backend.get_value(tf.convert_to_tensor(y_true)))
    y_pred = tf.convert_to_tensor(y_pred)
    if y_true.ndim == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = y_true[..., 0]
    return tf.constant(in_top_k(y_true, y_pred, k).astype(backend.floatx()))


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """Share of examples whose integer label is among the ``k`` highest predictions."""

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype=dtype, k=k)

    def update_state(self, y_true, y_pred, sample_weight=None):
        matches = sparse_top_k_categorical_accuracy(y_true, y_pred, **self._fn_kwargs)
        return super(MeanMetricWrapper, self).update_state(matches, sample_weight=sample_weight)
