"""What ``Model.compile`` builds: the loss container and the metrics container (tf-keras
compile_utils), with the distribution rules of §4.4.

Per replica, a SUM_OVER_BATCH_SIZE/AUTO loss is the local-batch mean times 1/N (so the SUM
all-reduce of gradients gives the global mean), regularisation losses are add_n'ed and
scaled by 1/N, each loss is multiplied by its weight; the "loss" metric is a Mean of the
unscaled loss weighted by the local batch size, so the logged loss is the global mean.
"""
from __future__ import annotations

import sim.tf as tf

from sim.keras import distribute_utils, losses as losses_mod, metrics as metrics_mod
from sim.keras.metrics_averaged import _sparse_ce_metric


def match_dtype_and_rank(y_t, y_p, sw):
    """(batch,) labels against (batch, k) predictions become (batch, 1); dtypes follow y_pred."""
    y_t = tf.convert_to_tensor(y_t)
    if len(y_t.shape) == 1 and len(y_p.shape) == 2:
        y_t = tf.expand_dims(y_t, axis=-1)
    if sw is not None:
        sw = tf.convert_to_tensor(sw)
        if len(sw.shape) == 1 and len(y_p.shape) == 2:
            sw = tf.expand_dims(sw, axis=-1)
    if (y_t.dtype.is_floating and y_p.dtype.is_floating) or (y_t.dtype.is_integer and y_p.dtype.is_integer):
        if y_t.dtype != y_p.dtype:
            y_t = tf.cast(y_t, y_p.dtype)
    if sw is not None and sw.dtype != y_p.dtype:
        sw = tf.cast(sw, y_p.dtype)
    return y_t, y_p, sw


def _flat(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _loss_object(loss):
    if loss is None:
        return None
    obj = losses_mod.get(loss)
    if not isinstance(obj, losses_mod.Loss):
        name = loss if isinstance(loss, str) else getattr(obj, "__name__", "loss")
        obj = losses_mod.LossFunctionWrapper(obj, name=name)
    obj._allow_sum_over_batch_size = True
    return obj


class LossesContainer:
    """The compiled loss: ``__call__(y_true, y_pred, sample_weight, regularization_losses)``."""

    def __init__(self, losses, loss_weights=None, output_names=None):
        self._user_losses = losses
        self._user_loss_weights = loss_weights
        self._output_names = output_names
        self._loss_metric = metrics_mod.Mean(name="loss")
        self._losses = None
        self._weights = None
        for loss in _flat(losses):
            if isinstance(loss, str):
                losses_mod.get(loss)  # an unknown name fails at compile, not mid-fit

    @property
    def metrics(self):
        return [self._loss_metric]

    def _build(self, y_pred):
        outputs = _flat(y_pred)
        user = self._user_losses
        if isinstance(user, dict) and self._output_names:
            losses = [user.get(n) for n in self._output_names]
        elif isinstance(user, (list, tuple)):
            losses = list(user)
        else:
            losses = [user] * len(outputs)
        self._losses = [_loss_object(l) for l in losses]
        w = self._user_loss_weights
        if isinstance(w, dict) and self._output_names:
            self._weights = [w.get(n, 1.0) for n in self._output_names]
        elif isinstance(w, (list, tuple)):
            self._weights = list(w)
        else:
            self._weights = [None] * len(outputs)

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        if self._losses is None:
            self._build(y_pred)
        y_trues, y_preds = _flat(y_true), _flat(y_pred)
        sws = _flat(sample_weight) if sample_weight is not None else [None] * len(y_preds)
        if len(sws) == 1 and len(y_preds) > 1:
            sws = sws * len(y_preds)
        n = distribute_utils.get_strategy().num_replicas_in_sync
        loss_values, metric_values = [], []
        batch_dim = None
        for y_t, y_p, sw, loss_obj, weight in zip(y_trues, y_preds, sws, self._losses, self._weights):
            if y_t is None or loss_obj is None:
                continue
            y_t, y_p, sw = match_dtype_and_rank(y_t, y_p, sw)
            loss_value = loss_obj(y_t, y_p, sample_weight=sw)
            metric_value = loss_value
            reduction = losses_mod.canonical(loss_obj.reduction)
            if reduction == losses_mod.Reduction.SUM:
                # Correct for the Mean loss metric counting each replica as a batch.
                metric_value = metric_value * float(n)
            if batch_dim is None:
                batch_dim = int(y_t.shape[0])
            if weight is not None:
                loss_value = loss_value * weight
                metric_value = metric_value * weight
            if reduction in (losses_mod.Reduction.SUM_OVER_BATCH_SIZE,
                             losses_mod.MEAN_WITH_SAMPLE_WEIGHT) and n > 1:
                loss_value = loss_value * (1.0 / n)
            loss_values.append(loss_value)
            metric_values.append(metric_value)
        if regularization_losses:
            reg = tf.add_n([tf.cast(r, loss_values[0].dtype) if loss_values else r
                            for r in regularization_losses]) if len(regularization_losses) > 1 \
                else tf.convert_to_tensor(regularization_losses[0])
            metric_values.append(reg)
            loss_values.append(reg * (1.0 / n) if n > 1 else reg)
        if not loss_values:
            return tf.zeros(())
        total_metric = metric_values[0] if len(metric_values) == 1 else tf.add_n(metric_values)
        # An empty replica (a short last batch split 2,2,2,0) weighs 0 in the logged mean, as in TF.
        self._loss_metric.update_state(total_metric,
                                       sample_weight=1 if batch_dim is None else batch_dim)
        return loss_values[0] if len(loss_values) == 1 else tf.add_n(loss_values)

    def reset_state(self):
        self._loss_metric.reset_state()


class _AutoAccuracy:
    """'accuracy' resolved on first use by the shapes, as Keras: binary when y_pred has one
    column, sparse when labels are indices, categorical otherwise."""

    # kind -> (binary, sparse, categorical), each with the name tf-keras's saved config gives it
    CHOICES = {
        "accuracy": (("binary_accuracy", metrics_mod.binary_accuracy),
                     ("sparse_categorical_accuracy", metrics_mod.sparse_categorical_accuracy),
                     ("categorical_accuracy", metrics_mod.categorical_accuracy)),
        "crossentropy": (("binary_crossentropy", metrics_mod.binary_crossentropy),
                         ("sparse_categorical_crossentropy", _sparse_ce_metric),
                         ("categorical_crossentropy", metrics_mod.categorical_crossentropy))}
    KINDS = {"accuracy": "accuracy", "acc": "accuracy", "crossentropy": "crossentropy",
             "ce": "crossentropy"}

    def __init__(self, kind):
        self.kind = kind
        self.fn = None
        self.resolved_name = None       # as tf-keras's saved config writes it, once resolved
        self.__name__ = kind

    def __call__(self, y_true, y_pred):
        if self.fn is None:
            self.resolve(tuple(y_true.shape), tuple(y_pred.shape))
        return self.fn(y_true, y_pred)

    def resolve(self, true_shape, pred_shape):
        t_rank, p_rank = len(true_shape), len(pred_shape)
        t_last = true_shape[-1] if t_rank else None
        p_last = pred_shape[-1] if p_rank else None
        binary = p_last == 1
        sparse = t_rank < p_rank or (t_last == 1 and p_last is not None and p_last > 1)
        binary_fn, sparse_fn, categorical_fn = self.CHOICES[self.kind]
        self.resolved_name, self.fn = binary_fn if binary else sparse_fn if sparse else \
            categorical_fn

    def resolve_named(self, fn_name):
        """Resolve to the function a file names; False if it is not one of this kind's."""
        for name, fn in self.CHOICES[self.kind]:
            if name == fn_name:
                self.resolved_name, self.fn = name, fn
                return True
        return False


def resolved_metric(name, fn_name):
    """A compiled 'accuracy'-like metric already resolved to ``fn_name`` (a tf-keras file's
    ``MeanMetricWrapper`` entry), or None when ``name`` is not one or ``fn_name`` is unknown."""
    kind = _AutoAccuracy.KINDS.get(name)
    auto = _AutoAccuracy(kind) if kind else None
    if auto is None or not auto.resolve_named(fn_name):
        return None
    return metrics_mod.MeanMetricWrapper(auto, name=name)


def _metric_object(metric):
    if isinstance(metric, metrics_mod.Metric):
        return metric
    if isinstance(metric, str) and metric in _AutoAccuracy.KINDS:
        return metrics_mod.MeanMetricWrapper(_AutoAccuracy(_AutoAccuracy.KINDS[metric]),
                                             name=metric)
    obj = metrics_mod.get(metric)
    if isinstance(obj, metrics_mod.Metric):
        return obj
    name = metric if isinstance(metric, str) else getattr(obj, "__name__", "metric")
    return metrics_mod.MeanMetricWrapper(obj, name=name)


class MetricsContainer:
    """The compiled metrics, created at compile time (inside the strategy scope)."""

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None):
        self._user_metrics = metrics
        self._user_weighted_metrics = weighted_metrics
        self._metrics = [_metric_object(m) for m in _flat_metrics(metrics)]
        self._weighted = [_metric_object(m) for m in _flat_metrics(weighted_metrics)]

    @property
    def metrics(self):
        return self._metrics + self._weighted

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_t = _flat(y_true)[0]
        y_p = _flat(y_pred)[0]
        if y_t is None:
            return
        y_t, y_p, sw = match_dtype_and_rank(y_t, y_p, sample_weight)
        for m in self._metrics:
            m.update_state(y_t, y_p)
        for m in self._weighted:
            m.update_state(y_t, y_p, sample_weight=sw)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


def _flat_metrics(metrics):
    if metrics is None:
        return []
    if isinstance(metrics, dict):
        out = []
        for k in metrics:
            v = metrics[k]
            out.extend(v if isinstance(v, (list, tuple)) else [v])
        return out
    if isinstance(metrics, (list, tuple)):
        return list(metrics)
    return [metrics]
