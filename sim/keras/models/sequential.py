"""``Sequential``: a stack of layers; built at once when the first layer knows its input shape
(so its variables are created inside the strategy scope the model is created in)."""
from __future__ import annotations

from sim.keras import backend, weight_names
from sim.keras.layers.base import Layer
from sim.keras.layers.input_layer import InputLayer, KerasTensor
from sim.keras.training import Model


class Sequential(Model):
    _is_graph_network = True   # tf-keras calls its layers outside its name scope
    def __init__(self, layers=None, name=None):
        super().__init__(name=name or backend.unique_object_name("sequential"))
        self._seq_layers = []
        self._input_layer = None
        self._shape = None  # the output shape of the stack so far (when known)
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        return list(self._seq_layers)

    def _sublayers(self):
        return self._seq_layers

    def add(self, layer):
        if isinstance(layer, KerasTensor):
            layer = layer._node.layer
        if isinstance(layer, InputLayer):
            self._input_layer = layer
            self._shape = layer._batch_input_shape
            self._input_last_dim = self._shape[-1] if len(self._shape) > 1 else None
            return
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. "
                            f"Received: layer={layer} of type {type(layer)}.")
        if any(l.name == layer.name for l in self._seq_layers):
            raise ValueError(f'All layers added to a Sequential model should have unique names. '
                             f'Name "{layer.name}" is already the name of a layer in this model. '
                             "Update the `name` argument to pass a unique name.")
        if not self._seq_layers and self._shape is None and layer._batch_input_shape is not None:
            self._shape = layer._batch_input_shape
            self._input_layer = InputLayer(batch_input_shape=self._shape, dtype=layer.dtype)
        self._seq_layers.append(layer)
        if self._shape is not None:
            self._build_layer(layer)

    def _build_layer(self, layer):
        if not layer.built:
            with weight_names.building(self, by_call=False), weight_names.building(layer):
                layer.build(self._shape)
            layer._build_input_shape = self._shape
            layer.built = True
        self._shape = layer.compute_output_shape(self._shape)
        layer._output_shape = self._shape
        self.built = True
        self._build_input_shape = self._input_layer._batch_input_shape if self._input_layer else None

    def pop(self):
        if not self._seq_layers:
            raise TypeError("There are no layers in the model.")
        self._seq_layers.pop()

    def build(self, input_shape=None):
        if input_shape is None and self._input_layer is not None:
            input_shape = self._input_layer._batch_input_shape
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        input_shape = tuple(input_shape)
        self._input_layer = InputLayer(batch_input_shape=(None,) + input_shape[1:])
        self._shape = self._input_layer._batch_input_shape
        for layer in self._seq_layers:
            self._build_layer(layer)
        self.built = True

    def _maybe_build(self, inputs):
        if not self.built and hasattr(inputs, "shape"):
            shape = tuple(None if d is None else int(d) for d in inputs.shape)
            self._input_layer = InputLayer(batch_input_shape=(None,) + shape[1:])
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._seq_layers:
            x = layer(x, training=training) if layer._call_accepts_training else layer(x)
        return x

    def compute_output_shape(self, input_shape):
        shape = input_shape
        for layer in self._seq_layers:
            shape = layer.compute_output_shape(shape)
        return shape

    def get_config(self):
        return {"name": self.name, "layers": [
            {"class_name": type(l).__name__, "config": l.get_config()} for l in self._seq_layers]}
