"""``model.weights.h5`` (inside a ``.keras`` zip, or alone as ``.weights.h5``) through h5py.

The layout is Keras 3's H5IOStore: one group per saveable at its path (state_walk.py), holding
a ``vars`` group with a ``name`` attribute and one dataset per variable, named "0", "1", ...
Loading checks each object as Keras 3 does and collects the failures into Keras's
"A total of N objects could not be loaded" ValueError; an optimizer whose variable count
differs is skipped with Keras's warning.
"""
from __future__ import annotations

import io
import warnings

import h5py
import numpy as np

from sim.keras import backend
from sim.keras.saving import h5_guard, state_walk
from sim.keras.version import keras_major


def write(model, target) -> None:
    """Write ``model``'s state to ``target`` (a path or a binary file object)."""
    with h5py.File(target, "w") as f:
        for path, obj in state_walk.walk(model):
            group = f.create_group(f"{path}/vars" if path else "vars")
            if keras_major() == 3:                 # tf-keras writes no name
                group.attrs["name"] = state_walk.saved_name(obj)
            for i, v in enumerate(state_walk.own_variables(obj)):
                group[str(i)] = np.asarray(backend.get_value(v))


def to_bytes(model) -> bytes:
    buffer = io.BytesIO()
    write(model, buffer)
    return buffer.getvalue()


def _group(f, path):
    """The ``vars`` group of ``path`` (empty dict when absent, as Keras reads it)."""
    return h5_guard.get_group(f, f"{path}/vars" if path else "vars", missing_ok=True)


def _layer_check(obj, store, variables):
    if len(store) != len(variables):
        raise ValueError(f"Layer '{obj.name}' expected {len(variables)} variables, but received "
                         f"{len(store)} variables during loading. "
                         f"Expected: {[_short_name(v) for v in variables]}")


def _short_name(v):
    return str(getattr(v, "name", "variable")).split("/")[-1].split(":")[0]


def _check_shape(v, shape):
    if tuple(v.shape) != tuple(shape):
        raise ValueError(
            "The shape of the target variable and the shape of the target value in "
            f"`variable.assign(value)` must match. variable.shape={tuple(v.shape)}, "
            f"Received: value.shape={tuple(shape)}. Target variable: {v!r}")


def _assign(v, value):
    v.assign(value.astype(v.dtype.name) if hasattr(v.dtype, "name") else value)


def _read(store, key, v):
    """The value for variable ``v``, its declared shape checked before anything is read."""
    return h5_guard.read(h5_guard.get_dataset(store, key), lambda shape: _check_shape(v, shape))


def read(model, source, skip_mismatch=False) -> None:
    """Assign the state in ``source`` (path or file object) to ``model``'s variables; with
    ``skip_mismatch`` the objects that do not fit keep their values and Keras's message is a
    warning."""
    from sim.keras.optimizers.optimizer import Optimizer
    failures = []
    with h5py.File(source, "r") as f:
        if keras_major() == 2 and "vars" not in f:      # tf-keras reads the root group blindly
            raise KeyError("Unable to synchronously open object (object 'vars' doesn't exist)")
        for path, obj in state_walk.walk(model):
            store = _group(f, path)
            variables = state_walk.own_variables(obj)
            if isinstance(obj, Optimizer):
                if len(store) != len(variables):
                    warnings.warn(
                        f"Skipping variable loading for optimizer '{state_walk.saved_name(obj)}', "
                        f"because it has {len(variables)} variables whereas the saved optimizer "
                        f"has {len(store)} variables. " + (
                            "This is likely because the optimizer has not been called/built yet."
                            if not variables else ""), stacklevel=3)
                    continue
            try:
                if not isinstance(obj, Optimizer):
                    _layer_check(obj, store, variables)
                for i, v in enumerate(variables):     # one by one, as Keras assigns them
                    _assign(v, _read(store, str(i), v))
            except (ValueError, KeyError) as e:
                failures.append((obj, e))
    if failures:
        obj, error = failures[0]
        message = (
            f"A total of {len(failures)} objects could not be loaded. Example error message for "
            f"object {_describe(obj)}:\n\n{error}\n\nList of objects that could not be loaded:\n"
            f"[{', '.join(_describe(o) for o, _ in failures)}]")
        if skip_mismatch:
            warnings.warn(message, stacklevel=3)
            return
        raise ValueError(message)


def _describe(obj):
    """Keras's ``<Dense name=dense, built=True>``; an optimizer with variables is built."""
    built = getattr(obj, "built", None)
    if built is None:
        built = bool(state_walk.own_variables(obj))
    return f"<{type(obj).__name__} name={getattr(obj, 'name', type(obj).__name__)}, built={built}>"
