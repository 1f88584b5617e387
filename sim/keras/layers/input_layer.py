"""Symbolic inputs for the functional API: ``Input``, ``InputLayer``, ``KerasTensor``.

Calling a layer on a KerasTensor records a node (layer, inputs, outputs) instead of computing;
a functional Model replays the recorded nodes in order on real tensors.
"""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import backend, weight_names
from sim.keras.layers.base import Layer
from sim.keras.layers.call_inputs import _map, is_shape


class KerasTensor:
    """A placeholder with a shape (batch dimension None) and a dtype."""

    def __init__(self, shape, dtype="float32", node=None, name=None):
        self.shape = tuple(shape)
        self.dtype = getattr(tf, str(getattr(dtype, "name", dtype)))
        self._node = node
        self.name = name

    def __repr__(self):
        layer = self._node.layer.name if self._node is not None else None
        return (f"<KerasTensor: shape={_fmt(self.shape)} dtype={self.dtype.name} "
                f"(created by layer '{layer}')>")

    def __hash__(self):
        return id(self)

    def __len__(self):
        raise TypeError("KerasTensor has no length; it stands for a batch of unknown size.")


def _fmt(shape):
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


class Node:
    """One recorded call: ``layer(inputs, *args, **kwargs) -> outputs``."""

    def __init__(self, layer, inputs, args, kwargs, outputs):
        self.layer, self.inputs, self.args, self.kwargs, self.outputs = layer, inputs, args, kwargs, outputs

    @property
    def parents(self):
        return [kt._node for kt in flatten(self.inputs) if isinstance(kt, KerasTensor) and kt._node]


def flatten(x):
    if isinstance(x, dict):
        return [v for k in x for v in flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [v for item in x for v in flatten(item)]
    return [x]


def call_symbolic(layer, inputs, args, kwargs):
    """Record ``layer(inputs)`` on KerasTensors: build the layer, infer the output shape."""
    shapes = _map(lambda kt: kt.shape, inputs)
    if not layer.built:
        with weight_names.building(layer):
            layer.build(shapes)
        layer._build_input_shape = shapes
        layer.built = True
    if isinstance(inputs, KerasTensor):
        layer._check_input(inputs)
    out_shapes = layer.compute_output_shape(shapes)
    dtype = getattr(layer, "_output_dtype", None) or layer.compute_dtype
    outputs = _map(lambda s: KerasTensor(s, dtype), out_shapes, leaf=is_shape)
    node = Node(layer, inputs, args, kwargs, outputs)
    for kt in flatten(outputs):
        kt._node = node
    layer._inbound_nodes.append(node)
    layer._output_shape = out_shapes
    return outputs


class InputLayer(Layer):
    """The layer behind ``Input``: it holds the input shape and yields the placeholder."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
                 sparse=None, name=None, ragged=None, type_spec=None, **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r} (InputLayer).")
        name = name or backend.unique_object_name("input", zero_based=False)
        dtype = str(getattr(dtype, "name", dtype)) if dtype is not None else backend.floatx()
        super().__init__(name=name, dtype=dtype)
        if batch_input_shape is None:
            shape = () if input_shape is None else tuple(input_shape)
            batch_input_shape = (batch_size,) + shape
        self._batch_input_shape = tuple(batch_input_shape)
        self.built = True
        self._output_shape = [self._batch_input_shape]
        tensor = KerasTensor(self._batch_input_shape, dtype, name=name)
        tensor._node = Node(self, (), (), {}, tensor)
        self._inbound_nodes.append(tensor._node)
        self.output = tensor

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self._dtype, "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None,
          ragged=None, type_spec=None, **kwargs):
    """``tf.keras.Input``: a placeholder to build a functional model from."""
    if shape is None and "batch_shape" not in kwargs:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. "
                         "Note that `shape` does not include the batch dimension.")
    if "batch_shape" in kwargs:
        layer = InputLayer(batch_input_shape=tuple(kwargs.pop("batch_shape")), dtype=dtype, name=name)
    else:
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
        layer = InputLayer(input_shape=shape, batch_size=batch_size, dtype=dtype, name=name)
    return layer.output
