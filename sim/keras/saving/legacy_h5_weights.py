"""tf-keras's HDF5 weights file (``save_weights("w.h5")`` under tf-keras; ``load_weights``
of a ``.h5`` under either Keras): hdf5_format's ``save_weights_to_hdf5_group``.

The root's ``layer_names`` attribute lists ``model.layers`` in order; each layer has a group of
its name holding a ``weight_names`` attribute and one dataset per weight at that name
(``dense/kernel:0``, so a nested group), layers sorted by name; ``top_level_model_weights``
holds the model's own. Loading matches the layers that have weights *by order* with the
file's, as tf-keras does, and raises its ValueErrors when counts or shapes differ.
"""
from __future__ import annotations

import h5py
import numpy as np

from sim.keras import backend
from sim.keras.saving import h5_guard

HEADER_LIMIT = 64512          # HDF5's object header limit: longer attributes are chunked
TF_KERAS_VERSION = b"2.21.0"


def _save_attribute(group, name, values):
    """A list of names as tf-keras stores it (variable-length UTF-8 strings), split into
    ``name0``, ``name1``... when longer than an HDF5 object header holds."""
    values = [str(v) for v in values]
    if not values:
        group.attrs[name] = np.asarray([])         # what tf-keras writes for no weights
        return
    chunks = [values]
    while any(sum(len(v) for v in c) > HEADER_LIMIT for c in chunks):
        chunks = [list(c) for c in np.array_split(np.asarray(values, dtype=object),
                                                   len(chunks) + 1)]
    for i, chunk in enumerate(chunks):
        key = name if len(chunks) == 1 else f"{name}{i}"
        group.attrs.create(key, chunk, dtype=h5py.string_dtype())


def load_names(group, name):
    return _load_attribute(group, name)


def _load_attribute(group, name):
    if name in group.attrs:
        values = list(group.attrs[name])
    else:
        values, i = [], 0
        while f"{name}{i}" in group.attrs:
            values += list(group.attrs[f"{name}{i}"])
            i += 1
    return [v.decode("utf8") if hasattr(v, "decode") else str(v) for v in values]


def _weights(layer):
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _weight_name(w):
    from sim.keras.version import keras_major
    return str(getattr(w, "path", None) or w.name) if keras_major() == 3 else str(w.name)


def _save_subset(group, weights):
    names = [_weight_name(w) for w in weights]
    _save_attribute(group, "weight_names", names)
    for name, w in zip(names, weights):
        group.create_dataset(name, data=np.asarray(backend.get_value(w)))


def write(model, target):
    """``model``'s weights to ``target`` (a path or a binary file object)."""
    with h5py.File(target, "w") as f:
        write_group(f, model, TF_KERAS_VERSION)


def write_group(f, model, version):
    """The weights layout into the file or group ``f`` (a full-model file's model_weights)."""
    _save_attribute(f, "layer_names", [layer.name for layer in model.layers])
    f.attrs["backend"] = "tensorflow"
    f.attrs["keras_version"] = version.decode()
    for layer in sorted(model.layers, key=lambda l: l.name):
        _save_subset(f.create_group(layer.name), _weights(layer))
    _save_subset(f.create_group("top_level_model_weights"),
                 list(model._trainable_weights) + list(model._non_trainable_weights))


save_names = _save_attribute


def _shape_check(v, layer_name):
    def check(shape):
        if tuple(v.shape) != tuple(shape):
            raise ValueError(f"Shape mismatch in layer {layer_name} for weight {v.name}. Weight "
                             f"expects shape {tuple(v.shape)}. Received saved weight with shape "
                             f"{tuple(shape)}")
    return check


def read(model, source):
    with h5py.File(source, "r") as f:
        if "layer_names" not in f.attrs and "model_weights" in f:
            f = h5_guard.get_group(f, "model_weights")   # a full-model .h5 holds its weights here
        read_group(f, model)


def read_group(f, model):
    layers = [l for l in model.layers if _weights(l)]
    names = [n for n in _load_attribute(f, "layer_names")
             if _load_attribute(h5_guard.get_group(f, n), "weight_names")]
    if len(names) != len(layers):
        raise ValueError("Layer count mismatch when loading weights from file. Model "
                         f"expected {len(layers)} layers, found {len(names)} saved layers.")
    pairs = []
    for k, (name, layer) in enumerate(zip(names, layers)):
        group = h5_guard.get_group(f, name)
        values = [h5_guard.get_dataset(group, w) for w in _load_attribute(group, "weight_names")]
        weights = _weights(layer)
        if len(values) != len(weights):
            raise ValueError(
                f"Weight count mismatch for layer #{k} (named {layer.name} in the current "
                f"model, {name} in the save file). Layer expects {len(weights)} weight(s). "
                f"Received {len(values)} saved weight(s)")
        pairs += [(w, v, layer.name) for w, v in zip(weights, values)]
    values = [h5_guard.read(v, _shape_check(w, layer_name)) for w, v, layer_name in pairs]
    for (w, _, _), value in zip(pairs, values):     # every shape checked before the first assign
        w.assign(value)
