"""Streaming metrics (``tf.keras.metrics``) whose state survives distribution.

State variables are created with ``synchronization=ON_READ, aggregation=SUM`` (§5): each
replica accumulates its own part and a cross-replica read sums them, so ``Mean`` gives
Σ total / Σ count over all replicas. ``result()`` called inside a replica goes through
``merge_call`` (as tf-keras' result_wrapper) so every replica reports the global value.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import backend, distribute_utils, losses as losses_mod, weight_names
from sim.keras._lookup import resolve


class Metric:
    """Base class: ``update_state``, ``result``, ``reset_state`` over tf.Variables."""

    def __init__(self, name=None, dtype=None, **kwargs):
        self.name = name or backend.to_snake_case(type(self).__name__)
        self._dtype = dtype or backend.floatx()
        self._variables = []
        self.stateful = True
        self.built = True

    @property
    def dtype(self):
        return getattr(tf, str(getattr(self._dtype, "name", self._dtype)))

    def add_weight(self, name, shape=(), initializer="zeros", dtype=None):
        dtype = dtype or self.dtype
        value = np.zeros(tuple(shape), dtype=str(getattr(dtype, "name", dtype)))
        strategy = distribute_utils.get_strategy()
        sync = tf.VariableSynchronization.ON_READ
        if distribute_utils.is_tpu_strategy(strategy):
            sync = tf.VariableSynchronization.ON_WRITE
        v = tf.Variable(value, trainable=False, name=name, dtype=dtype, synchronization=sync,
                        aggregation=tf.VariableAggregation.SUM)
        from sim.keras.version import keras_major
        if keras_major() == 3:
            if getattr(self, "_path_name", None) is None:  # "precision", then "precision_1"...
                self._path_name = backend.unique_object_name(self.name)
            # Keras 3: 'true_positives', path 'precision/true_positives'; tf-keras: ':0' names
            weight_names.as_keras3(v, name, f"{self._path_name}/{name}")
        self._variables.append(v)
        return v

    @property
    def variables(self):
        return list(self._variables)

    weights = variables

    @property
    def trainable_weights(self):
        return []

    @property
    def non_trainable_weights(self):
        return list(self._variables)

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        """The metric value, synchronised across replicas when called inside one."""
        if (distribute_utils.has_strategy() and not distribute_utils.in_cross_replica_context()
                and distribute_utils.get_strategy().num_replicas_in_sync > 1):
            ctx = distribute_utils.get_replica_context()
            return ctx.merge_call(lambda strategy: self._result())
        return self._result()

    def _result(self):
        raise NotImplementedError

    def reset_state(self):
        for v in self._variables:
            v.assign(np.zeros(tuple(v.shape), dtype=_np_dtype(v.dtype)))

    def reset_states(self):
        self.reset_state()

    def get_config(self):
        return {"name": self.name, "dtype": str(self._dtype)}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _np_dtype(dtype):
    return np.dtype(str(getattr(dtype, "name", dtype)))


def _n(x) -> float:
    return float(np.prod(tuple(int(d) for d in x.shape))) if len(x.shape) else 1.0


class Reduce(Metric):
    """Sum or mean of values (optionally weighted), the base of Mean and Sum."""

    def __init__(self, reduction, name, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.reduction = reduction
        self.total = self.add_weight("total")
        if reduction != "sum":
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = tf.cast(values, self.dtype)
        if sample_weight is None:
            num_values = _n(values)
        else:
            sw = tf.cast(sample_weight, self.dtype)
            if len(sw.shape) == len(values.shape) + 1 and sw.shape[-1] == 1:
                sw = tf.squeeze(sw, axis=-1)
            while 0 < len(sw.shape) < len(values.shape):
                sw = tf.expand_dims(sw, -1)
            if tuple(sw.shape) != tuple(values.shape):
                sw = sw * tf.ones_like(values)
            values = values * sw
            num_values = tf.reduce_sum(sw)
        self.total.assign_add(tf.reduce_sum(values))
        if self.reduction != "sum":
            self.count.assign_add(num_values)

    def _result(self):
        if self.reduction == "sum":
            return tf.identity(self.total)
        total = tf.convert_to_tensor(self.total)
        count = tf.convert_to_tensor(self.count)
        # divide_no_nan: an empty metric reads 0, not NaN.
        return total / count if float(count.numpy()) != 0.0 else total * 0.0


class Mean(Reduce):
    def __init__(self, name="mean", dtype=None):
        super().__init__("weighted_mean", name=name, dtype=dtype)


class Sum(Reduce):
    def __init__(self, name="sum", dtype=None):
        super().__init__("sum", name=name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """Mean of ``fn(y_true, y_pred)``: accuracies, mse... as streaming metrics."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = tf.convert_to_tensor(y_pred)
        y_true = tf.convert_to_tensor(y_true)
        if len(y_true.shape) != len(y_pred.shape) and self._fn not in _NO_SQUEEZE:
            y_pred, y_true = losses_mod.squeeze_or_expand(y_pred, y_true)
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(matches, sample_weight=sample_weight)

    def get_config(self):
        config = dict(self._fn_kwargs)
        config.update(super().get_config())
        return config


# The catalogue, one module per family (averaged per-example scores, confusion counts, top-k).
from sim.keras.metrics_averaged import (_CLASSES, _FUNCTIONS, _NO_SQUEEZE,  # noqa: E402,F401
                                        Accuracy, BinaryAccuracy, BinaryCrossentropy,
                                        CategoricalAccuracy, CategoricalCrossentropy,
                                        MeanAbsoluteError, MeanSquaredError, RootMeanSquaredError,
                                        SparseCategoricalAccuracy, SparseCategoricalCrossentropy,
                                        TopKCategoricalAccuracy, accuracy, binary_accuracy,
                                        binary_crossentropy, categorical_accuracy,
                                        categorical_crossentropy, mae, mean_absolute_error,
                                        mean_squared_error, mse, sparse_categorical_accuracy,
                                        sparse_categorical_crossentropy, top_k_categorical_accuracy)
from sim.keras.metrics_auc import AUC  # noqa: E402
from sim.keras.metrics_confusion import MeanIoU, Precision, Recall  # noqa: E402
from sim.keras.metrics_topk import (SparseTopKCategoricalAccuracy,  # noqa: E402
                                    sparse_top_k_categorical_accuracy)

_FUNCTIONS["sparse_top_k_categorical_accuracy"] = sparse_top_k_categorical_accuracy
_CLASSES.update({c.__name__: c for c in (AUC, MeanIoU, Precision, Recall,
                                         SparseTopKCategoricalAccuracy)})
_CLASSES.update({"precision": Precision, "recall": Recall, "auc": AUC})  # Keras 3's snake_case


def get(identifier):
    return resolve(identifier, Metric, _FUNCTIONS, _CLASSES, "metric")


def serialize(metric):
    return getattr(metric, "name", None) or getattr(metric, "__name__", str(metric))
