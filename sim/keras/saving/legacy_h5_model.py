"""The legacy HDF5 full-model file (``model.save("m.h5")``, ``load_model("m.h5")``), as
Keras 3's legacy_h5_format and tf-keras's hdf5_format write it.

Root attributes ``backend``, ``keras_version``, ``model_config`` (the model's config as JSON,
layers as ``{"class_name", "config"}``) and ``training_config`` (compile's arguments with an
``optimizer_config``); group ``model_weights`` in the HDF5 weights layout
(legacy_h5_weights.py); group ``optimizer_weights`` with a ``weight_names`` attribute and one
dataset per optimizer variable. Weight names are Keras 3's paths (``sequential/dense/kernel``)
or tf-keras's variable names (``dense/kernel:0``).
"""
from __future__ import annotations

import io
import json
import warnings

import h5py
import numpy as np

from sim.keras import backend
from sim.keras.saving import (file_errors, h5_guard, legacy_h5_weights, legacy_metrics,
                              model_config, model_from_config)
from sim.keras.version import keras_major

_ENTRY_KEYS = ("module", "registered_name", "build_config", "compile_config")


def _legacy_entry(item):
    """A layer or model entry without the keys Keras 3's own format adds."""
    out = {k: v for k, v in item.items() if k not in _ENTRY_KEYS}
    config = dict(out.get("config") or {})
    if isinstance(config.get("layers"), list):
        config["layers"] = [_legacy_entry(l) for l in config["layers"]]
    out["config"] = config
    return out


def _name(v):
    return str(v.path if keras_major() == 3 else v.name)


def _training_config(model):
    compiled = model_config.compile_config(model)
    if not compiled:
        return None
    optimizer = compiled.pop("optimizer")
    name = optimizer["class_name"] if keras_major() == 3 else "Custom>" + optimizer["class_name"]
    compiled["optimizer_config"] = {"class_name": name, "config": optimizer["config"]}
    resolved = legacy_metrics.resolved(model) if keras_major() == 2 else {}
    for key in ("metrics", "weighted_metrics"):      # tf-keras writes the built metric
        if isinstance(compiled.get(key), list):
            compiled[key] = [legacy_metrics.entry(m, resolved[m]) if isinstance(m, str) and
                             m in resolved else m for m in compiled[key]]
    return compiled


def to_bytes(model) -> bytes:
    version = b"3.15.1" if keras_major() == 3 else legacy_h5_weights.TF_KERAS_VERSION
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = version.decode()
        f.attrs["model_config"] = json.dumps(_legacy_entry(model_config.model(model, False)))
        training = _training_config(model)
        if training is not None:
            f.attrs["training_config"] = json.dumps(training)
        legacy_h5_weights.write_group(f.create_group("model_weights"), model, version)
        if training is not None and model.optimizer.variables:
            group = f.create_group("optimizer_weights")
            variables = list(model.optimizer.variables)
            legacy_h5_weights.save_names(group, "weight_names", [_name(v) for v in variables])
            for v in variables:
                group.create_dataset(_name(v), data=np.asarray(backend.get_value(v)))
    return buffer.getvalue()


def _compile_args(training):
    optimizer = dict(training["optimizer_config"])
    optimizer["class_name"] = optimizer["class_name"].split(">")[-1]
    optimizer.setdefault("module", "keras.optimizers")

    def metric(m):
        if isinstance(m, list):
            return [metric(x) for x in m]
        return legacy_metrics.restore(m)
    def per_output(key):
        found = metric(training.get(key))
        if isinstance(found, list) and len(found) == 1 and isinstance(found[0], list):
            found = found[0]                  # tf-keras lists them per output
        return found
    return {"optimizer": optimizer, "loss": training.get("loss"), "metrics": per_output("metrics"),
            "loss_weights": training.get("loss_weights"),
            "weighted_metrics": per_output("weighted_metrics")}


def _json(path, attrs, key):
    """A JSON attribute; json's JSONDecodeError, as Keras's loader raises it, naming the file."""
    try:
        return json.loads(attrs[key])
    except json.JSONDecodeError as e:
        raise file_errors.explained(file_errors.bad_json(path, key, e)) from None


def _optimizer_shape_check(v):
    def check(shape):
        if tuple(v.shape) != tuple(shape):
            raise ValueError(
                "The shape of the target variable and the shape of the target value in "
                f"`variable.assign(value)` must match. variable.shape={tuple(v.shape)}, "
                f"Received: value.shape={tuple(shape)}. Target variable: {v!r}")
    return check


def load(path, custom_objects=None, compile=True):
    with h5py.File(path, "r") as f:
        if "model_config" not in f.attrs:
            raise ValueError(f"No model config found in the file at {path}.")
        config = _json(path, f.attrs, "model_config")
        training = f.attrs.get("training_config")
        item = dict(config, build_config=None)
        if compile and training is not None:
            item["compile_config"] = _compile_args(_json(path, f.attrs, "training_config"))
        model = model_from_config.model_from_config(item, custom_objects, compile=compile)
        if compile and training is not None:
            legacy_metrics.apply(model, {})     # tf-keras's loader resolves what is left
        legacy_h5_weights.read_group(h5_guard.get_group(f, "model_weights"), model)
        if compile and training is not None and "optimizer_weights" in f:
            group = h5_guard.get_group(f, "optimizer_weights")
            names = legacy_h5_weights.load_names(group, "weight_names")
            variables = list(model.optimizer.variables)
            if len(names) != len(variables):
                warnings.warn("Error in loading the saved optimizer state. As a result, your "
                              "model is starting with a freshly initialized optimizer.",
                              stacklevel=3)
            else:
                try:
                    values = [h5_guard.get_dataset(group, name) for name in names]
                except KeyError as e:        # a name its list has and the group not: damage
                    raise file_errors.damaged_part(path, "optimizer_weights", e) from None
                for v, value in zip(variables, values):
                    v.assign(h5_guard.read(value, _optimizer_shape_check(v)))
    return model
