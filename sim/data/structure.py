"""Elements of a dataset: nests of Tensors, their specs, and how user functions receive them."""
from __future__ import annotations

import numpy as np

from sim.engine import nest
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor, convert_to_tensor


def normalize(element, lists_are_tensors=False):
    """Leaves become Tensors. A list is a tensor in a source's input (``from_tensor_slices
    ([1, 2])``) but a tuple in a function's output, as in tf.data."""
    if isinstance(element, list) and not lists_are_tensors:
        element = tuple(element)
    if isinstance(element, dict):
        return type(element)((k, normalize(v, lists_are_tensors)) for k, v in element.items())
    if isinstance(element, tuple):
        items = [normalize(v, lists_are_tensors) for v in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return element if type(element) is Tensor else convert_to_tensor(element)


def spec_of(element):
    return nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), element)


def call(fn, element):
    """tf.data's calling convention: a tuple element is unpacked into positional arguments."""
    if isinstance(element, tuple) and not hasattr(element, "_fields"):
        return fn(*element)
    return fn(element)


def to_numpy(element):
    return nest.map_structure(lambda t: t.numpy() if isinstance(t, Tensor) else np.asarray(t),
                              element)
