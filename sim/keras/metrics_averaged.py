"""Metrics that score each example with a function and average the scores (``keras.metrics``).

Accuracies, errors and cross-entropies: a ``MeanMetricWrapper`` around the function (the losses'
own for errors and cross-entropies), so under a strategy each replica sums its scores and counts
and a read divides the totals. ``_FUNCTIONS`` and ``_CLASSES`` are what ``metrics.get`` resolves
a string or a class name to.
"""
from __future__ import annotations

import sim.tf as tf
from sim.keras import backend, losses as losses_mod
from sim.keras.metrics import Mean, MeanMetricWrapper, Sum


def accuracy(y_true, y_pred):
    if y_true.dtype != y_pred.dtype:
        y_pred = tf.cast(y_pred, y_true.dtype)
    return tf.cast(tf.equal(y_true, y_pred), backend.floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = tf.cast(y_pred > threshold, y_pred.dtype)
    return tf.reduce_mean(tf.cast(tf.equal(tf.cast(y_true, y_pred.dtype), y_pred), backend.floatx()), axis=-1)


def categorical_accuracy(y_true, y_pred):
    return tf.cast(tf.equal(tf.argmax(y_true, axis=-1), tf.argmax(y_pred, axis=-1)), backend.floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = tf.squeeze(y_true, axis=-1)
    pred = tf.argmax(y_pred, axis=-1)
    if pred.dtype != y_true.dtype:
        pred = tf.cast(pred, y_true.dtype)
    return tf.cast(tf.equal(y_true, pred), backend.floatx())


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    from sim.keras import metrics_topk  # TensorFlow's in_top_k tie rule lives there
    return metrics_topk.top_k_categorical_accuracy(y_true, y_pred, k)


_NO_SQUEEZE = (sparse_categorical_accuracy,)

mean_squared_error = mse = losses_mod.mean_squared_error
mean_absolute_error = mae = losses_mod.mean_absolute_error
binary_crossentropy = losses_mod.binary_crossentropy
categorical_crossentropy = losses_mod.categorical_crossentropy
sparse_categorical_crossentropy = losses_mod.sparse_categorical_crossentropy


def _sparse_ce_metric(y_true, y_pred, from_logits=False):
    return losses_mod.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


_NO_SQUEEZE = _NO_SQUEEZE + (_sparse_ce_metric,)


class Accuracy(MeanMetricWrapper):
    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype=dtype)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype=dtype, k=k)


class MeanSquaredError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses_mod.mean_squared_error, name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses_mod.mean_absolute_error, name, dtype=dtype)


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = tf.convert_to_tensor(y_pred)
        y_true = tf.cast(y_true, y_pred.dtype)
        y_pred, y_true = losses_mod.squeeze_or_expand(y_pred, y_true)
        return super().update_state(tf.square(y_pred - y_true), sample_weight)

    def _result(self):
        return tf.sqrt(super()._result())


class BinaryCrossentropy(MeanMetricWrapper):
    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0.0):
        super().__init__(losses_mod.binary_crossentropy, name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(MeanMetricWrapper):
    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False, label_smoothing=0.0):
        super().__init__(losses_mod.categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False):
        super().__init__(_sparse_ce_metric, name, dtype=dtype, from_logits=from_logits)


_FUNCTIONS = {
    "accuracy": accuracy, "acc": accuracy, "binary_accuracy": binary_accuracy,
    "categorical_accuracy": categorical_accuracy,
    "sparse_categorical_accuracy": sparse_categorical_accuracy,
    "top_k_categorical_accuracy": top_k_categorical_accuracy,
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error,
    "binary_crossentropy": binary_crossentropy, "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": _sparse_ce_metric,
}
_CLASSES = {c.__name__: c for c in (
    Mean, Sum, Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    TopKCategoricalAccuracy, MeanSquaredError, MeanAbsoluteError, RootMeanSquaredError,
    BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy)}
