"""Metrics over confusion-matrix counts: Precision, Recall, AUC and MeanIoU (``keras.metrics``).

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

EPSILON = 1e-7  # AUC's thresholds start at -EPSILON and end at 1 + EPSILON, as in Keras


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


class AUC(Metric):
    """Area under the ROC or PR curve from counts at ``num_thresholds`` thresholds, summed by
    Keras' rules (trapezoids for ROC, Davis & Goadrich's interpolation for PR). With
    ``multi_label`` each label (last axis) has its own counts, shape (thresholds, labels), made
    at the first update when ``num_labels`` is not given, and the result averages the labels' AUCs
    (weighted by ``label_weights``); without it, ``label_weights`` weigh the examples' labels."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        super().__init__(name=name or "auc", dtype=dtype)
        if label_weights is not None:
            label_weights = np.asarray(backend.get_value(label_weights), np.float32)
            if (label_weights < 0).any():
                raise ValueError("All values of `label_weights` must be non-negative. Received: "
                                 f"label_weights={label_weights.tolist()}")
        self.label_weights, self.num_labels = label_weights, num_labels
        self.curve = str(getattr(curve, "value", curve)).upper()
        self.summation_method = str(getattr(summation_method, "value", summation_method)).lower()
        if self.curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["ROC", "PR"]')
        if self.summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". Expected '
                             'values are ["interpolation", "majoring", "minoring"]')
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            self.num_thresholds = len(inner) + 2
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = int(num_thresholds)
            inner = [(i + 1) * 1.0 / (self.num_thresholds - 1) for i in range(self.num_thresholds - 2)]
        self._thresholds = [0.0 - EPSILON] + inner + [1.0 + EPSILON]
        self.multi_label, self._from_logits = bool(multi_label), bool(from_logits)
        self._built = False
        if not self.multi_label or num_labels is not None:
            self._build(num_labels)

    _COUNTS = (("tp", "true_positives"), ("fp", "false_positives"), ("tn", "true_negatives"),
               ("fn", "false_negatives"))

    def _build(self, num_labels):
        shape = (self.num_thresholds,) if not self.multi_label else (self.num_thresholds, num_labels)
        self.num_labels = num_labels if self.multi_label else self.num_labels
        from sim.keras.version import keras_major
        order = self._COUNTS if keras_major() == 3 else [self._COUNTS[i] for i in (0, 2, 1, 3)]
        for _, var in order:   # tf-keras makes tp, tn, fp, fn; Keras 3 tp, fp, tn, fn
            setattr(self, var, self.add_weight(var, shape=shape))
        self._built = True

    @property
    def thresholds(self):
        return list(self._thresholds)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self._from_logits:
            y_pred = tf.sigmoid(tf.convert_to_tensor(y_pred))
        if self.multi_label:
            labels, preds, weights = _align_labels(y_true, y_pred, sample_weight)
            if not self._built:
                self._build(preds.shape[-1])
        else:
            if self.label_weights is not None:  # a weight per label, on every example's label
                sample_weight = _array(1.0 if sample_weight is None else sample_weight)
                preds_shape = _array(y_pred).shape
                if 0 < sample_weight.ndim < len(preds_shape):
                    sample_weight = sample_weight.reshape(
                        sample_weight.shape + (1,) * (len(preds_shape) - sample_weight.ndim))
                sample_weight = np.broadcast_to(sample_weight, preds_shape) * self.label_weights
            labels, preds, weights = _align(y_true, y_pred, sample_weight)
        counts = _counts(labels, preds, weights, self._thresholds)
        for key, var in self._COUNTS:
            getattr(self, var).assign_add(counts[key].astype(np.float32))

    def _result(self):
        if not self._built:
            return tf.constant(np.float32(0))
        tp, fp, tn, fn = (_array(getattr(self, var)) for _, var in self._COUNTS)
        areas = self._areas(tp, fp, tn, fn)  # one per label (a scalar without multi_label)
        if not self.multi_label:
            return tf.constant(np.float32(areas))
        if self.label_weights is None:
            return tf.constant(np.float32(np.mean(areas, dtype=np.float32)))
        w = self.label_weights
        return tf.constant(np.float32(_div_no_nan(np.sum(areas * w, dtype=np.float32),
                                                  np.sum(w, dtype=np.float32))))

    def _areas(self, tp, fp, tn, fn):
        """The area under the curve along the thresholds (axis 0), per label if there are any."""
        if self.curve == "PR" and self.summation_method == "interpolation":
            return _interpolate_pr_auc(tp, fp, fn)
        recall = _div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _div_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _div_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2
        elif self.summation_method == "minoring":
            heights = np.minimum(y[:-1], y[1:])
        else:
            heights = np.maximum(y[:-1], y[1:])
        return np.sum((x[:-1] - x[1:]) * heights, axis=0, dtype=np.float32)

    def get_config(self):
        config = super().get_config()
        config.update(num_thresholds=self.num_thresholds, curve=self.curve,
                      summation_method=self.summation_method,
                      thresholds=self._thresholds[1:-1], from_logits=self._from_logits,
                      multi_label=self.multi_label, num_labels=self.num_labels,
                      label_weights=None if self.label_weights is None
                      else self.label_weights.tolist())
        return config


def _interpolate_pr_auc(tp, fp, fn):
    """Keras' PR-AUC: precision interpolated between thresholds (Davis & Goadrich 2006)."""
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    dp = p[:-1] - p[1:]
    slope = _div_no_nan(dtp, np.maximum(dp, 0))
    intercept = tp[1:] - slope * p[1:]
    both = (p[:-1] > 0) & (p[1:] > 0)
    ratio = np.where(both, _div_no_nan(p[:-1], np.maximum(p[1:], 0)), np.float32(1))
    with np.errstate(divide="ignore"):
        log_ratio = np.log(np.where(ratio > 0, ratio, 1)).astype(np.float32)
    increment = _div_no_nan(slope * (dtp + intercept * log_ratio), np.maximum(tp[1:] + fn[1:], 0))
    return np.sum(increment, axis=0, dtype=np.float32)


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
