"""Weights files: NumPy ``.npz`` (``allow_pickle=False``) plus JSON metadata, written atomically.

A crash mid-save must never leave a half-written checkpoint, so every file is written to a
temporary file beside it and moved into place with ``os.replace`` (sim/safe_io.py).
"""
from __future__ import annotations

import os

import numpy as np

from sim import safe_io
from sim.keras import _errors, backend

FORMAT = "sim.keras.weights/1"


def atomic_savez(path: str, arrays: dict, meta: dict) -> str:
    """One ``.npz`` moved into place in one step; stale temporary files of ``path`` removed."""
    return safe_io.atomic_savez(path, arrays, meta)


def load_npz(path: str):
    """(meta dict, [arrays in order], extras) from a file written by ``atomic_savez``; a missing,
    damaged or foreign file raises TensorFlow's NotFoundError / DataLossError (sim/safe_io.py)."""
    meta, data = safe_io.read_npz(path, required=("count",))
    try:
        count = int(meta["count"])
    except (TypeError, ValueError):
        raise safe_io.damaged(path, "bad_metadata") from None
    arrays = [safe_io.checked_array(data, f"w{i:05d}", path) for i in range(count)]
    extra = {k: v for k, v in data.items() if k.startswith("x_")}
    return meta, arrays, extra


def weights_path(filepath) -> str:
    """Files with an extension are written as named; a bare prefix gets ``.npz``."""
    filepath = os.fspath(filepath)
    return filepath if os.path.splitext(filepath)[1] else filepath + ".npz"


def pack(variables, extra_meta=None, extra_arrays=None) -> tuple[dict, dict]:
    arrays = {f"w{i:05d}": np.asarray(backend.get_value(v)) for i, v in enumerate(variables)}
    for k, v in (extra_arrays or {}).items():
        arrays["x_" + k] = np.asarray(v)
    meta = {"format": FORMAT, "count": len(arrays) - len(extra_arrays or {}),
            "names": [getattr(v, "name", f"w{i}") for i, v in enumerate(variables)],
            "shapes": [list(np.shape(backend.get_value(v))) for v in variables]}
    meta.update(extra_meta or {})
    return arrays, meta


def save_weights(model, filepath, overwrite=True):
    path = weights_path(filepath)
    if not overwrite and os.path.exists(path):
        raise FileExistsError(path)
    arrays, meta = pack(model.weights, {"model": model.name})
    return atomic_savez(path, arrays, meta)


def assign_all(variables, arrays, where):
    if len(variables) != len(arrays):
        raise ValueError(_errors.msg("weights_count_mismatch", path=where, got=len(arrays),
                                     expected=len(variables)))
    for v, a in zip(variables, arrays):
        if tuple(v.shape) != tuple(a.shape):
            raise ValueError(_errors.msg("weights_shape_mismatch", name=v.name,
                                         expected=tuple(v.shape), got=tuple(a.shape)))
    for v, a in zip(variables, arrays):
        v.assign(a)


def load_weights(model, filepath):
    path = weights_path(filepath)
    if not os.path.exists(path) and os.path.isdir(os.fspath(filepath)):
        path = os.path.join(os.fspath(filepath), "variables.npz")
    if not os.path.exists(path):
        raise FileNotFoundError(_errors.msg("weights_not_found", path=path))
    meta, arrays, _ = load_npz(path)
    if not model.weights:
        raise ValueError(_errors.msg("load_unbuilt", name=model.name))
    if "n_model_weights" in meta:        # written by model.save: the optimizer's slots follow the
        arrays = arrays[:int(meta["n_model_weights"])]   # model's weights; skipped, as Keras does
    assign_all(model.weights, arrays, path)
