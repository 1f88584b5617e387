"""Metrics over confusion-matrix counts: Precision, Recall, MeanIoU (``keras.metrics``; AUC: metrics_auc.py).

Their state is counts (true/false positives/negatives per threshold, or a class-by-class
matrix) in ``Metric.add_weight`` variables, so under a strategy each replica counts its own
examples and a read sums the replicas (ON_READ, SUM) before the ratio is taken: the ratio of
the sums, never the mean of per-replica ratios. The rules are Keras': a prediction is positive
when it is strictly above the threshold, a label when it is non-zero; empty ratios read 0.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import backend
from sim.keras.metrics import Metric



def _array(x, dtype=np.float32):
    return np.asarray(backend.get_value(tf.convert_to_tensor(x)), dtype=dtype)


def _div_no_nan(a, b):
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return np.where(b == 0, np.float32(0), a / np.where(b == 0, np.float32(1), b)).astype(np.float32)


def _filter_top_k(y_pred, k):
    """Keep each row's ``k`` largest predictions (the first ones on ties), the rest -inf."""
    order = np.argsort(-y_pred, axis=-1, kind="stable")[..., :k]
    out = np.full_like(y_pred, -np.inf)
    np.put_along_axis(out, order, np.take_along_axis(y_pred, order, -1), -1)
    return out


def _align(y_true, y_pred, sample_weight, top_k=None, class_id=None):
    """Keras' preparation: labels as bools, top_k filtering then class_id slicing, weights
    broadcast to the predictions; everything flattened."""
    y_pred = _array(y_pred)
    y_true = _array(y_true)
    if y_true.ndim == y_pred.ndim + 1 and y_true.shape[-1] == 1:
        y_true = y_true[..., 0]
    elif y_pred.ndim == y_true.ndim + 1 and y_pred.shape[-1] == 1:
        y_pred = y_pred[..., 0]
    weight = None if sample_weight is None else _array(sample_weight)
    if weight is not None and 0 < weight.ndim < y_pred.ndim:
        weight = weight.reshape(weight.shape + (1,) * (y_pred.ndim - weight.ndim))
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
        if weight is not None and weight.ndim == y_pred.ndim + 1:
            weight = weight[..., 0] if weight.shape[-1] == 1 else weight[..., class_id]
    weight = np.ones_like(y_pred) if weight is None else np.broadcast_to(weight, y_pred.shape)
    return y_true.reshape(-1) != 0, y_pred.reshape(-1), weight.reshape(-1)


def _counts(labels, preds, weights, thresholds):
    """Weighted tp, fp, tn, fn per threshold (positive = prediction > threshold); examples on
    axis 0 of ``labels``/``preds``/``weights``, any further axis (AUC's labels) kept."""
    t = np.asarray(thresholds, np.float32).reshape((-1,) + (1,) * preds.ndim)
    above, w = preds[None] > t, weights[None]
    return {"tp": (w * (above & labels)).sum(1), "fp": (w * (above & ~labels)).sum(1),
            "tn": (w * (~above & ~labels)).sum(1), "fn": (w * (~above & labels)).sum(1)}


def _align_labels(y_true, y_pred, sample_weight):
    """multi_label AUC: (examples, labels) arrays, labels as bools, weights broadcast to them."""
    y_pred = _array(y_pred)
    y_true = _array(y_true)
    weight = None if sample_weight is None else _array(sample_weight)
    if weight is not None and 0 < weight.ndim < y_pred.ndim:
        weight = weight.reshape(weight.shape + (1,) * (y_pred.ndim - weight.ndim))
    weight = np.ones_like(y_pred) if weight is None else np.broadcast_to(weight, y_pred.shape)
    labels = y_pred.shape[-1]
    return (y_true.reshape(-1, labels) != 0, y_pred.reshape(-1, labels),
            weight.reshape(-1, labels))


def _thresholds_list(thresholds, default):
    if thresholds is None:
        return [default]
    if np.ndim(thresholds) == 0:
        return [float(thresholds)]
    return [float(t) for t in thresholds]


class _ThresholdMetric(Metric):
    """Precision and Recall: two count vectors, one entry per threshold."""
    _counted = ()

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        default = 0.5 if top_k is None else -np.inf
        self.thresholds = _thresholds_list(thresholds, default)
        for key, var in self._counted:
            setattr(self, var, self.add_weight(var, shape=(len(self.thresholds),)))

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = _counts(*_align(y_true, y_pred, sample_weight, self.top_k, self.class_id),
                         self.thresholds)
        for key, var in self._counted:
            getattr(self, var).assign_add(counts[key].astype(np.float32))

    def _ratio(self, tp, other):
        value = _div_no_nan(tp, tp + other)
        return tf.constant(value[0] if len(self.thresholds) == 1 else value)

    def get_config(self):
        config = super().get_config()
        config.update(thresholds=self.init_thresholds, top_k=self.top_k, class_id=self.class_id)
        return config


class Precision(_ThresholdMetric):
    """tp / (tp + fp): of the predicted positives, the share that are positive."""
    _counted = (("tp", "true_positives"), ("fp", "false_positives"))

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, top_k, class_id, name or "precision", dtype)

    def _result(self):
        return self._ratio(_array(self.true_positives), _array(self.false_positives))


class Recall(_ThresholdMetric):
    """tp / (tp + fn): of the positives, the share predicted positive."""
    _counted = (("tp", "true_positives"), ("fn", "false_negatives"))

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds, top_k, class_id, name or "recall", dtype)

    def _result(self):
        return self._ratio(_array(self.true_positives), _array(self.false_negatives))


class MeanIoU(Metric):
    """Mean over classes of intersection / union, from a weighted confusion matrix (rows are
    labels, columns predictions); classes absent from both are left out of the mean. Under
    Keras 3 (sim.keras.version) the matrix counts in int64, so fractional weights truncate."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        from sim.keras.version import keras_major
        self._integer_counts = dtype is None and keras_major() == 3  # Keras 3: dtype "int"
        super().__init__(name=name or "mean_io_u", dtype=dtype)
        self.num_classes, self.ignore_class = int(num_classes), ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self.total_cm = self.add_weight("total_confusion_matrix",
                                        shape=(self.num_classes, self.num_classes),
                                        dtype=tf.int64 if self._integer_counts else None)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _array(y_true), _array(y_pred)
        if not self.sparse_y_true:
            y_true = np.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = np.argmax(y_pred, axis=self.axis)
        labels, preds = y_true.reshape(-1).astype(np.int64), y_pred.reshape(-1).astype(np.int64)
        weights = (np.ones(labels.shape, np.float32) if sample_weight is None
                   else np.broadcast_to(_array(sample_weight), y_true.shape).reshape(-1))
        if self.ignore_class is not None:
            keep = labels != self.ignore_class
            labels, preds, weights = labels[keep], preds[keep], weights[keep]
        bad = (labels < 0) | (labels >= self.num_classes) | (preds < 0) | (preds >= self.num_classes)
        if bad.any():
            from sim.engine.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, "`labels` and `predictions` must be in "
                                       f"[0, {self.num_classes}) (num_classes={self.num_classes}).")
        if self._integer_counts:  # Keras 3 casts the weights to int: 0.3 counts as 0
            weights = np.trunc(weights)
        cm = np.zeros((self.num_classes, self.num_classes), np.float32)
        np.add.at(cm, (labels, preds), weights)
        self.total_cm.assign_add(cm.astype(np.int64) if self._integer_counts else cm)

    def _result(self):
        cm = _array(self.total_cm)
        tp = np.diag(cm)
        union = cm.sum(0) + cm.sum(1) - tp
        valid = np.float32(np.count_nonzero(union))
        return tf.constant(_div_no_nan(np.sum(_div_no_nan(tp, union)), valid))

    def get_config(self):
        config = super().get_config()
        config.update(num_classes=self.num_classes, ignore_class=self.ignore_class,
                      sparse_y_true=self.sparse_y_true, sparse_y_pred=self.sparse_y_pred,
                      axis=self.axis)
        return config
