"""AUC (``keras.metrics.AUC``): the area under the ROC or PR curve from confusion counts.

Its state is four count vectors over ``num_thresholds`` thresholds (true/false positives and
negatives), kept in ON_READ SUM variables like Precision's, so under a strategy every replica
counts its own examples and the area is taken from the summed counts. Keras' rules: an
interpolated (Riemann or Davis-Goadrich for PR) sum over the thresholds.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf
from sim.keras import backend
from sim.keras.metrics import Metric
from sim.keras.metrics_confusion import _align, _align_labels, _array, _counts, _div_no_nan

EPSILON = 1e-7  # the thresholds start at -EPSILON and end at 1 + EPSILON, as in Keras


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
