"""Loss classes and functions with TensorFlow's reduction semantics (``tf.keras.losses``).

``Loss.__call__`` computes per-example losses (mean over the last axis), weights them, then
reduces: NONE keeps them, SUM adds them, SUM_OVER_BATCH_SIZE (= AUTO) divides the sum by the
number of elements. Under a strategy, AUTO/SUM_OVER_BATCH_SIZE would average per replica and
give N times the gradient after the SUM all-reduce (§4.3): tf-keras refuses them outside
``Model.compile``; Keras 3 allows them and divides the replica's mean by
``num_replicas_in_sync`` (its ``scale_loss_for_distribution``). sim.keras follows the Keras the
environment selects (sim/keras/version.py). ``Reduction`` and the weighting/reduction functions are in
loss_reduction.py (re-exported here).
"""
from __future__ import annotations

import sim.tf as tf

from sim.keras import _errors, activations, backend, distribute_utils
from sim.keras._lookup import resolve
from sim.keras.version import keras_major
from sim.keras.loss_reduction import (DEFAULT, MEAN_WITH_SAMPLE_WEIGHT, Reduction,  # noqa: F401
                                      _rank, _tensor, canonical, compute_weighted_loss,
                                      reduce_weighted_loss, resolve_reduction,
                                      scale_loss_for_distribution, squeeze_or_expand)


_STRATEGY_TEXT = (
    "Please use `tf.keras.losses.Reduction.SUM` or `tf.keras.losses.Reduction.NONE` for loss "
    "reduction when losses are used with `tf.distribute.Strategy`, except for specifying losses "
    "in `Model.compile()` for use by the built-in training looop `Model.fit()`.\n"
    "Please see https://www.tensorflow.org/tutorials/distribute/custom_training for more details."
)


class Loss:
    """Base loss: subclasses implement ``call(y_true, y_pred)`` returning per-example losses."""

    def __init__(self, reduction=DEFAULT, name=None):
        self.reduction = resolve_reduction(reduction)
        self.name = name or backend.to_snake_case(type(self).__name__)
        self._allow_sum_over_batch_size = False

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = tf.convert_to_tensor(y_pred)
        losses = self.call(y_true, y_pred)
        reduction = self._get_reduction()
        if reduction == MEAN_WITH_SAMPLE_WEIGHT and sample_weight is not None:
            total = compute_weighted_loss(losses, sample_weight, reduction=Reduction.SUM)
            weights = tf.reduce_sum(_tensor(sample_weight, total.dtype))
            loss = tf.math.divide_no_nan(total, weights)
        else:
            loss = compute_weighted_loss(losses, sample_weight, reduction=(
                Reduction.SUM_OVER_BATCH_SIZE if reduction == MEAN_WITH_SAMPLE_WEIGHT else reduction))
        if reduction in (Reduction.SUM_OVER_BATCH_SIZE, MEAN_WITH_SAMPLE_WEIGHT) \
                and not self._allow_sum_over_batch_size and keras_major() == 3:
            loss = scale_loss_for_distribution(loss)  # Keras 3: 1/N under N > 1 replicas
        return loss

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def _get_reduction(self):
        """The reduction to apply: NONE, SUM, SUM_OVER_BATCH_SIZE or MEAN_WITH_SAMPLE_WEIGHT."""
        if (not self._allow_sum_over_batch_size and distribute_utils.has_strategy()
                and self.reduction in (Reduction.AUTO, Reduction.SUM_OVER_BATCH_SIZE)
                and keras_major() == 2):
            raise ValueError(_errors.msg("loss_reduction_strategy", _STRATEGY_TEXT))
        return canonical(self.reduction)

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss around a per-example function ``fn(y_true, y_pred, **kwargs)``."""

    def __init__(self, fn, reduction=DEFAULT, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        y_true = _tensor(y_true)
        if hasattr(y_true, "shape") and _rank(y_true) != _rank(y_pred):
            y_pred, y_true = squeeze_or_expand(y_pred, y_true)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = dict(self._fn_kwargs)
        config.update(super().get_config())
        return config


# ---------------------------------------------------------------- per-example functions


def _float_true(y_true, y_pred):
    return tf.cast(y_true, y_pred.dtype)


def mean_squared_error(y_true, y_pred):
    y_pred = tf.convert_to_tensor(y_pred)
    return tf.reduce_mean(tf.square(y_pred - _float_true(y_true, y_pred)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_pred = tf.convert_to_tensor(y_pred)
    return tf.reduce_mean(tf.abs(y_pred - _float_true(y_true, y_pred)), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _float_true(y_true, y_pred)
    diff = tf.abs((y_true - y_pred) / tf.maximum(tf.abs(y_true), backend.epsilon()))
    return 100.0 * tf.reduce_mean(diff, axis=-1)


def huber(y_true, y_pred, delta=1.0):
    y_pred = tf.convert_to_tensor(y_pred)
    error = y_pred - _float_true(y_true, y_pred)
    abs_error = tf.abs(error)
    quadratic = 0.5 * tf.square(error)
    linear = delta * abs_error - 0.5 * delta * delta
    return tf.reduce_mean(tf.where(abs_error <= delta, quadratic, linear), axis=-1)


def _logits_of(output, from_logits, kind="softmax"):
    logits = None if from_logits else activations.logits_of(output, kind)
    if logits is not None:
        return logits, True
    return output, from_logits


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _float_true(y_true, y_pred)
    if label_smoothing:
        num_classes = float(y_true.shape[-1])
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    output, from_logits = _logits_of(y_pred, from_logits)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=y_true, logits=output, axis=axis)
    eps = backend.epsilon()
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -tf.reduce_sum(y_true * tf.math.log(output), axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, ignore_class=None):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = tf.convert_to_tensor(y_true)
    if _rank(y_true) == _rank(y_pred) and y_true.shape[-1] == 1:
        y_true = tf.squeeze(y_true, axis=-1)
    labels = tf.cast(y_true, tf.int64)
    output, from_logits = _logits_of(y_pred, from_logits)
    if not from_logits:
        eps = backend.epsilon()
        output = tf.math.log(tf.clip_by_value(output, eps, 1.0 - eps))
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=output)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = tf.convert_to_tensor(y_pred)
    y_true = _float_true(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    output, from_logits = _logits_of(y_pred, from_logits, "sigmoid")
    if from_logits:
        bce = tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=output)
    else:
        eps = backend.epsilon()
        output = tf.clip_by_value(output, eps, 1.0 - eps)
        bce = -(y_true * tf.math.log(output + eps) + (1.0 - y_true) * tf.math.log(1.0 - output + eps))
    return tf.reduce_mean(bce, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error


# ---------------------------------------------------------------- loss classes


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction=DEFAULT, name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction=reduction, name=name)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction=DEFAULT, name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction=reduction, name=name)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    def __init__(self, reduction=DEFAULT, name="mean_absolute_percentage_error"):
        super().__init__(mean_absolute_percentage_error, reduction=reduction, name=name)


class Huber(LossFunctionWrapper):
    def __init__(self, delta=1.0, reduction=DEFAULT, name="huber_loss"):
        super().__init__(huber, reduction=reduction, name=name, delta=delta)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=DEFAULT, name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction=reduction, name=name,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=DEFAULT, name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction=reduction, name=name,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction=DEFAULT,
                 name="sparse_categorical_crossentropy"):
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name,
                         from_logits=from_logits)
        self.from_logits = from_logits


_FUNCTIONS = {
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error, "MSE": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "mean_absolute_percentage_error": mean_absolute_percentage_error,
    "mape": mean_absolute_percentage_error, "huber": huber, "huber_loss": huber,
    "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
}
_CLASSES = {
    "MeanSquaredError": MeanSquaredError, "MeanAbsoluteError": MeanAbsoluteError,
    "MeanAbsolutePercentageError": MeanAbsolutePercentageError, "Huber": Huber,
    "BinaryCrossentropy": BinaryCrossentropy, "CategoricalCrossentropy": CategoricalCrossentropy,
    "SparseCategoricalCrossentropy": SparseCategoricalCrossentropy,
}


def get(identifier):
    """A loss function or object from a name, a callable or a Loss (as tf.keras.losses.get)."""
    if identifier is None:
        return None
    return resolve(identifier, Loss, _FUNCTIONS, _CLASSES, "loss")


def serialize(loss):
    return getattr(loss, "name", None) or getattr(loss, "__name__", str(loss))


def deserialize(name):
    return get(name)
