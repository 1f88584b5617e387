"""``model.save`` / ``tf.keras.models.load_model``: npz weights + optimizer state + JSON config.

Rebuilding arbitrary Python models from a config is out of scope: ``load_model`` explains the
supported path (build the model in code, then ``load_weights``).
"""
from __future__ import annotations

import json
import os

from sim import safe_io
from sim.keras import _errors
from sim.keras.saving import npz_weights as saving


def _paths(filepath):
    filepath = os.fspath(filepath)
    if os.path.splitext(filepath)[1]:
        return filepath, None
    return os.path.join(filepath, "variables.npz"), os.path.join(filepath, "model.json")


def save_model(model, filepath, overwrite=True):
    weights_file, config_file = _paths(filepath)
    if config_file:      # a save killed while writing the config left its temporary file
        safe_io.remove_stale_temps(config_file)
    opt_vars = list(model.optimizer.variables) if getattr(model, "optimizer", None) else []
    arrays, meta = saving.pack(model.weights + opt_vars, {
        "model": model.name, "n_model_weights": len(model.weights)})
    saving.atomic_savez(weights_file, arrays, meta)
    if config_file:
        config = {"class_name": type(model).__name__, "config": _safe(model.get_config())}
        text = json.dumps(config, indent=1, sort_keys=True).encode("utf-8")
        safe_io.atomic_write(config_file, lambda f: f.write(text))
    return weights_file


def _safe(obj):
    try:
        json.dumps(obj)
        return obj
    except TypeError:
        if isinstance(obj, dict):
            return {k: _safe(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [_safe(v) for v in obj]
        return str(obj)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True, **kwargs):
    raise NotImplementedError(_errors.msg("load_model_unsupported", path=os.fspath(filepath)))
