"""tf-keras's legacy saves (``.h5``, a SavedModel directory) resolve 'accuracy' from the outputs.

tf-keras's ``save_model`` calls ``saving_utils.try_build_compiled_arguments`` before it writes an
HDF5 file or a SavedModel, and its loaders call it again after compiling: a metric compiled as
``"accuracy"`` / ``"acc"`` (or ``"crossentropy"`` / ``"ce"``) that no fit or evaluate has resolved
yet is resolved with ``model.outputs`` standing for both the labels and the predictions. Labels of
the predictions' rank mean one-hot labels, so it becomes ``categorical_accuracy``
(``binary_accuracy`` for one output column), even when the data's labels are class indices. The
file records the resolved function (a ``MeanMetricWrapper`` entry with its ``fn``) and a load
compiles with it. Measured on TensorFlow 2.21 with tf-keras: the multi-worker Keras tutorial saves
its model before it trains it, and that model and the one loaded back then report accuracy 0.0
(with index labels, categorical accuracy counts the predictions of class 0). A model fit before
the save keeps ``sparse_categorical_accuracy``; ``.keras`` files and Keras 3 do none of this
(measured: the same numbers with and without the save).
"""
from __future__ import annotations

from sim.keras.version import keras_major


def _output_shape(model):
    """The model's output shape, when tf-keras would know ``model.outputs`` (a graph network)."""
    outputs = getattr(model, "outputs", None)
    if outputs:
        return tuple(outputs[0].shape)
    from sim.keras.models.sequential import Sequential
    if isinstance(model, Sequential) and model.built and model.layers:
        shape = model.layers[-1]._output_shape
        return tuple(shape) if shape is not None else None
    return None


def _autos(model):
    from sim.keras.compile_utils import _AutoAccuracy
    for m in model.compiled_metrics.metrics:
        if isinstance(getattr(m, "_fn", None), _AutoAccuracy):
            yield m


def build_from_outputs(model):
    """tf-keras's ``try_build_compiled_arguments``: resolve what no fit has, from the outputs."""
    if keras_major() != 2 or not getattr(model, "_is_compiled", False):
        return
    shape = _output_shape(model)
    if shape is None:
        return
    for m in _autos(model):
        if m._fn.fn is None:
            m._fn.resolve(shape, shape)


def resolved(model):
    """``{metric name: function name}`` of the resolved 'accuracy'-like metrics."""
    if not getattr(model, "_is_compiled", False):
        return {}
    return {m.name: m._fn.resolved_name for m in _autos(model) if m._fn.fn is not None}


def entry(name, fn_name):
    """The metric as tf-keras's training_config writes it once built."""
    return {"class_name": "MeanMetricWrapper",
            "config": {"name": name, "dtype": "float32", "fn": fn_name}}


def restore(item):
    """A training_config's metric: a resolved 'accuracy'-like metric object, else its name."""
    from sim.keras.compile_utils import resolved_metric
    if isinstance(item, dict) and item.get("class_name") == "MeanMetricWrapper":
        config = item.get("config") or {}
        name = config.get("name") or config.get("fn")
        return resolved_metric(name, config.get("fn")) or name
    return item


def apply(model, names):
    """After a load compiled ``model``: resolve its metrics as the file recorded (``resolved``),
    then the rest as tf-keras's loader does (``build_from_outputs``)."""
    if not getattr(model, "_is_compiled", False):
        return
    for m in _autos(model):
        fn_name = (names or {}).get(m.name)
        if fn_name:
            m._fn.resolve_named(fn_name)
    build_from_outputs(model)
