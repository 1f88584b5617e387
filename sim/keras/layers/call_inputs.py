"""What a Keras layer's call receives: nests of inputs, their shapes, symbolic inputs (a
functional model being built) and NumPy inputs cast to the layer's dtype (Keras' autocast)."""
from __future__ import annotations

import numpy as np

import sim.tf as tf

from sim.keras import _errors


def shape_tuple(x) -> tuple:
    shape = x.shape
    dims = shape.as_list() if hasattr(shape, "as_list") else list(shape)
    return tuple(None if d is None else int(d) for d in dims)


def is_symbolic(x) -> bool:
    from sim.keras.layers.input_layer import KerasTensor

    if isinstance(x, KerasTensor):
        return True
    if isinstance(x, (list, tuple)):
        return any(is_symbolic(v) for v in x)
    if isinstance(x, dict):
        return any(is_symbolic(v) for v in x.values())
    return False


def _fmt_shape(shape):
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def is_shape(s) -> bool:
    return isinstance(s, tuple) and all(d is None or isinstance(d, int) for d in s)


def _map(fn, x, leaf=None):
    """Apply ``fn`` to the leaves of a dict/list/tuple nest (``leaf`` says what a leaf is)."""
    if leaf is not None and leaf(x):
        return fn(x)
    if isinstance(x, dict):
        return {k: _map(fn, v, leaf) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_map(fn, v, leaf) for v in x)
    return fn(x)


def _to_tensors(x, dtype):
    """NumPy inputs become tensors; floating inputs are cast to the layer's dtype (autocast)."""
    if isinstance(x, dict):
        return {k: _to_tensors(v, dtype) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_to_tensors(v, dtype) for v in x)
    if isinstance(x, (np.ndarray, np.generic, float, int)):
        arr = np.asarray(x)
        if arr.dtype.kind == "f" and arr.dtype != np.dtype(dtype):
            arr = arr.astype(dtype)
        return tf.convert_to_tensor(arr)
    dt = getattr(x, "dtype", None)
    if dt is not None and getattr(dt, "is_floating", False) and dt.name != dtype:
        return tf.cast(x, dtype)
    return x


def check_input(layer, inputs):
    """Keras' input check: the last axis the layer was built for, and its minimum rank."""
    dim = layer._input_last_dim
    if dim is None or not hasattr(inputs, "shape"):
        return
    shape = inputs.shape
    if len(shape) and shape[-1] is not None and int(shape[-1]) != dim:
        raise ValueError(_errors.msg(
            "input_shape_mismatch",
            f'Input 0 of layer "{layer.name}" is incompatible with the layer: expected axis -1 '
            f"of input shape to have value {dim}, but received input with shape "
            f"{_fmt_shape(shape_tuple(inputs))}",
            layer=layer.name, expected=dim, got=_fmt_shape(shape_tuple(inputs))))
    if layer._min_ndim and len(shape) < layer._min_ndim:
        raise ValueError(
            f'Input 0 of layer "{layer.name}" is incompatible with the layer: expected '
            f"min_ndim={layer._min_ndim}, found ndim={len(shape)}. Full shape received: "
            f"{_fmt_shape(shape_tuple(inputs))}")


def _dedupe(vs):
    seen, out = set(), []
    for v in vs:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


def batch_input_shape_of(kwargs):
    """The input shape a layer was given (``batch_input_shape``, ``input_shape`` with
    ``batch_size``, or ``input_dim``), popped from its keyword arguments; None if none."""
    batch_input_shape = kwargs.pop("batch_input_shape", None)
    input_shape = kwargs.pop("input_shape", None)
    input_dim = kwargs.pop("input_dim", None)
    batch_size = kwargs.pop("batch_size", None)
    if input_shape is None and input_dim is not None:
        input_shape = (input_dim,)
    if input_shape is not None and batch_input_shape is None:
        batch_input_shape = (batch_size,) + tuple(input_shape)
    return tuple(batch_input_shape) if batch_input_shape else None


def output_shape_by_call(layer, input_shape):
    """A layer's output shape, by running its ``call`` on zeros (as Keras traces symbolically)."""
    dummy = _map(lambda s: tf.zeros([1 if d is None else d for d in s]), input_shape, leaf=is_shape)
    if not layer.built:
        layer._maybe_build(dummy)
    out = layer.call(dummy, training=False) if layer._call_accepts_training else layer.call(dummy)
    return _map(lambda t: (None,) + shape_tuple(t)[1:], out)
