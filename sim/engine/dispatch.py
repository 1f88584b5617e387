"""Ops called on symbolic values (Keras' functional API): ``tf.reduce_mean(keras_tensor)``.

TensorFlow lets an op take a Keras symbolic tensor and records it as a layer (TFOpLambda) in the
model being built. The engine knows nothing of Keras: Keras registers its symbolic type and a
handler here, and the ops the facade wraps with ``dispatching`` hand such calls to it.
"""
from __future__ import annotations

import functools

_types: tuple = ()
_handler = [None]


def register(symbolic_type, handler):
    """``handler(op, args, kwargs)`` builds the symbolic result of ``op`` on ``symbolic_type``."""
    global _types
    _types = _types + (symbolic_type,)
    _handler[0] = handler


def _symbolic(x):
    if isinstance(x, _types):
        return True
    if type(x) in (list, tuple):
        return any(_symbolic(v) for v in x)
    return False


def dispatching(op):
    """``op`` that passes calls with a symbolic argument to the registered handler."""
    @functools.wraps(op)
    def wrapper(*args, **kwargs):
        for a in args:
            if isinstance(a, _types) or (type(a) in (list, tuple) and _symbolic(a)):
                return _handler[0](op, args, kwargs)
        if kwargs and any(_symbolic(v) for v in kwargs.values()):
            return _handler[0](op, args, kwargs)
        return op(*args, **kwargs)
    wrapper._op = op
    return wrapper
