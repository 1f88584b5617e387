"""The functional ``Model(inputs, outputs)``: replays recorded layer calls in graph order.

Inputs may be one tensor, a list, or a dict (``Model({"features": inp}, out)``); the model is
then called with the same structure.
"""
from __future__ import annotations

from sim.keras import backend
from sim.keras.layers.call_inputs import _map
from sim.keras.layers.input_layer import InputLayer, KerasTensor, flatten
from sim.keras.training import Model


class Functional(Model):
    _is_graph_network = True   # tf-keras calls its layers outside its name scope
    def __init__(self, inputs=None, outputs=None, name=None, trainable=True, **kwargs):
        super().__init__(name=name or backend.unique_object_name("model"), trainable=trainable)
        if isinstance(inputs, (list, tuple)) and len(inputs) == 1:
            inputs = inputs[0]
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self.inputs = flatten(inputs)
        self.outputs = flatten(outputs)
        for kt in self.inputs + self.outputs:
            if not isinstance(kt, KerasTensor):
                raise ValueError("Input and output tensors of a functional Model must come from "
                                 "`tf.keras.Input` and calls of Keras layers. "
                                 f"Received: {kt!r}")
        self._nodes = []
        seen = set()

        def visit(node):
            if id(node) in seen:
                return
            seen.add(id(node))
            for parent in node.parents:
                visit(parent)
            self._nodes.append(node)

        for kt in self.outputs:
            visit(kt._node)
        self._model_layers = []
        for node in self._nodes:
            if all(node.layer is not l for l in self._model_layers):
                self._model_layers.append(node.layer)
        self._compute_nodes = [n for n in self._nodes if not isinstance(n.layer, InputLayer)]
        self.output_names = [kt._node.layer.name for kt in self.outputs]
        self.input_names = [kt._node.layer.name for kt in self.inputs]
        if len(self.inputs) == 1 and len(self.inputs[0].shape) > 1:
            last = self.inputs[0].shape[-1]
            self._input_last_dim = last
        self.built = True

    @property
    def layers(self):
        return list(self._model_layers)

    def _sublayers(self):
        return self._model_layers

    def call(self, inputs, training=None, mask=None):
        values = {}
        struct = self._inputs_struct
        if isinstance(struct, dict):
            if not isinstance(inputs, dict) and len(struct) == 1:
                inputs = {next(iter(struct)): inputs}     # one input: Keras matches by position
            if not isinstance(inputs, dict):
                raise ValueError(f"Model {self.name} expects a dict input with keys "
                                 f"{sorted(struct)}; received {type(inputs).__name__}.")
            for key, kt in struct.items():
                if key not in inputs:
                    raise ValueError(f"Missing data for input \"{key}\". You passed a data dictionary "
                                     f"with keys {sorted(inputs)}. Expected the following keys: "
                                     f"{sorted(struct)}")
                values[id(kt)] = inputs[key]
        elif isinstance(struct, (list, tuple)):
            given = list(inputs.values()) if isinstance(inputs, dict) else list(inputs)
            for kt, value in zip(struct, given):
                values[id(kt)] = value
        else:
            if isinstance(inputs, (list, tuple)) and len(inputs) == 1:
                inputs = inputs[0]
            values[id(struct)] = inputs

        def fetch(v):
            return values[id(v)] if isinstance(v, KerasTensor) else v

        for node in self._compute_nodes:
            args = _map(fetch, node.inputs)
            layer = node.layer
            kwargs = dict(node.kwargs)
            if layer._call_accepts_training and "training" not in kwargs:
                kwargs["training"] = training
            out = layer(args, *node.args, **kwargs)
            for kt, value in zip(flatten(node.outputs), flatten(out)):
                values[id(kt)] = value
        return _map(fetch, self._outputs_struct)

    def compute_output_shape(self, input_shape):
        return _map(lambda kt: kt.shape, self._outputs_struct)

    def get_config(self):
        return {"name": self.name, "layers": [
            {"class_name": type(l).__name__, "config": l.get_config()} for l in self._model_layers]}
