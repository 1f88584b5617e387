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
from sim.keras.saving import state_walk
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
    name = f"{path}/vars" if path else "vars"
    node = f.get(name)
    if node is None:
        return {}
    if not isinstance(node, h5py.Group):
        raise ValueError(f"Invalid H5 file, expected Group but received {type(node)}")
    return node


def _layer_check(obj, store, variables):
    if len(store) != len(variables):
        raise ValueError(f"Layer '{obj.name}' expected {len(variables)} variables, but received "
                         f"{len(store)} variables during loading. "
                         f"Expected: {[_short_name(v) for v in variables]}")


def _short_name(v):
    return str(getattr(v, "name", "variable")).split("/")[-1].split(":")[0]


def _check_shape(v, value):
    if tuple(v.shape) != tuple(value.shape):
        raise ValueError(
            "The shape of the target variable and the shape of the target value in "
            f"`variable.assign(value)` must match. variable.shape={tuple(v.shape)}, "
            f"Received: value.shape={tuple(value.shape)}. Target variable: {v!r}")


def _assign(v, value):
    v.assign(value.astype(v.dtype.name) if hasattr(v.dtype, "name") else value)


def _read(store, key):
    node = store[key]
    if not isinstance(node, h5py.Dataset):
        raise ValueError(f"Invalid H5 file, expected Dataset, received {type(node)}")
    return np.asarray(node[()])


def read(model, source, skip_mismatch=False) -> None:
    """Assign the state in ``source`` (path or file object) to ``model``'s variables; with
    ``skip_mismatch`` the objects that do not fit keep their values and Keras's message is a
    warning."""
    from sim.keras.optimizers.optimizer import Optimizer
    failures = []
    with h5py.File(source, "r") as f:
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
                    value = _read(store, str(i))
                    _check_shape(v, value)
                    _assign(v, value)
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
    return f"<{type(obj).__name__} name={obj.name}, built={obj.built}>"
