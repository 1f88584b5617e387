"""How the selected Keras names a layer's weights (sim/keras/version.py).

tf-keras names a weight after the layer that made it, as TensorFlow names variables:
``dense/kernel:0``. Keras 3 names it ``kernel`` and keeps where it was made in ``path``: the
names of the layers being built or called around it, outermost first (``sequential/dense/kernel``
for a Sequential built from an ``Input``, ``dense/kernel`` for a layer built on its own or in a
functional model), and prints it as ``<Variable path=..., shape=(4, 3), dtype=float32,
value=...>``, under a strategy too. Layers enter ``building(layer)`` wherever Keras 3 enters the
layer's name scope: its ``__call__``, its ``build``, a Sequential adding a layer.
"""
from __future__ import annotations

from contextlib import contextmanager


from sim.engine.variable import keras3_repr  # noqa: F401  (a Keras 3 weight's repr)

_enclosing: list = []   # (layer, entered by a call), outermost first


@contextmanager
def building(layer, by_call=True):
    """Weights made inside belong under ``layer``'s name: Keras 3 enters the layer's name scope
    when it calls or builds it; tf-keras only when it calls it (``by_call``)."""
    _enclosing.append((layer, by_call))
    try:
        yield
    finally:
        _enclosing.pop()


def keras3_path(layer, name) -> str:
    """``outer/.../layer/name``: the enclosing layers, then ``layer`` itself once."""
    layers = []
    for l, _ in _enclosing + [(layer, True)]:
        if not layers or layers[-1] is not l:   # a layer entered twice counts once
            layers.append(l)
    return "/".join([l.name for l in layers] + [name])


def tf_keras_name(name) -> str:
    """tf-keras's variable name before ':0': the name scopes of the layers being called, except
    Sequential and functional models (they call their layers outside their own scope), so a
    subclassed model gives 'my_model/dense/kernel', a Sequential 'dense/kernel', and a layer
    built directly with ``build()`` only 'kernel'."""
    scopes = []
    for l, by_call in _enclosing:
        if by_call and not getattr(l, "_is_graph_network", False) and l.name not in scopes[-1:]:
            scopes.append(l.name)
    return "/".join(scopes + [name])


_keras3_classes: dict = {}


def _keras3_class(cls):
    """``cls`` under the name Keras 3 shows: its ``Variable`` wraps a distributed variable, so
    ``type(v).__name__`` is 'Variable' under a strategy too. A subclass, so sim still treats
    the object as the distributed variable it is."""
    if cls.__name__ == "Variable":
        return cls
    if cls not in _keras3_classes:
        _keras3_classes[cls] = type("Variable", (cls,), {
            "__module__": "keras.src.backend.tensorflow.core",
            "__doc__": f"A Keras 3 weight over a {cls.__name__} (sim/keras/weight_names.py)."})
    return _keras3_classes[cls]


def as_keras3(variable, name, path):
    """Give ``variable`` (or each component of a distributed one) Keras 3's name, path, repr
    and type name."""
    components = getattr(variable, "_values", (variable,))
    components[0]._name = name
    for component in components:
        component.path = path
        component._keras_path = path
    if components[0] is not variable:
        variable.__class__ = _keras3_class(type(variable))
