"""``TFOpLambda``: a TensorFlow op applied to Keras symbolic tensors becomes a layer of the model.

``tf.reduce_mean(emb_layer(model_input), axis=1)`` inside a functional model records a layer
that calls ``tf.reduce_mean(x, axis=1)`` on the real tensor when the model runs (as tf-keras).
"""
from __future__ import annotations

from sim.engine import dispatch
from sim.keras.layers.base import Layer
from sim.keras.layers.input_layer import KerasTensor, call_symbolic


def _fill(template, values):
    """Replace the KerasTensors of ``template`` (args, kwargs) by ``values`` in order."""
    it = iter(values)

    def sub(x):
        if isinstance(x, KerasTensor):
            return next(it)
        if type(x) in (list, tuple):
            return type(x)(sub(v) for v in x)
        return x
    args, kwargs = template
    return [sub(a) for a in args], {k: sub(v) for k, v in kwargs.items()}


def _symbols(template):
    found = []

    def walk(x):
        if isinstance(x, KerasTensor):
            found.append(x)
        elif type(x) in (list, tuple):
            for v in x:
                walk(v)
    args, kwargs = template
    for a in list(args) + list(kwargs.values()):
        walk(a)
    return found


class TFOpLambda(Layer):
    """One TensorFlow op with fixed non-tensor arguments."""

    def __init__(self, op, args, kwargs, **layer_kwargs):
        name = getattr(op, "__name__", "op")
        super().__init__(name=layer_kwargs.pop("name", None) or f"tf.{name}", **layer_kwargs)
        self._op, self._template = op, (tuple(args), dict(kwargs))
        self._single = len(_symbols(self._template)) == 1

    def call(self, inputs):
        values = [inputs] if self._single else list(inputs)
        args, kwargs = _fill(self._template, values)
        return self._op(*args, **kwargs)


def _handle(op, args, kwargs):
    symbols = _symbols((args, kwargs))
    layer = TFOpLambda(op, args, kwargs)
    inputs = symbols[0] if len(symbols) == 1 else symbols
    return call_symbolic(layer, inputs, (), {})


dispatch.register(KerasTensor, _handle)
