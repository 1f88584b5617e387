"""Activation functions by name or callable, as ``tf.keras.activations``.

softmax and sigmoid remember their logits on the output (``_keras_logits``) like tf-keras,
so crossentropy losses can use the numerically stable logits path and match TF's numbers.
"""
from __future__ import annotations

import weakref

import sim.tf as tf

from sim.keras import _errors


_LOGITS: dict = {}


def _remember_logits(out, x, kind):
    """Remember that ``out`` came from these logits (tf-keras sets ``out._keras_logits``)."""
    if len(_LOGITS) > 64:
        _LOGITS.clear()
    try:
        _LOGITS[id(out)] = (weakref.ref(out), x, kind)
    except TypeError:
        pass
    return out


def logits_of(out, kind):
    """The logits behind a ``kind`` ("softmax"/"sigmoid") output, or None."""
    entry = _LOGITS.get(id(out))
    if entry is not None and entry[0]() is out and entry[2] == kind:
        return entry[1]
    return None


def linear(x):
    return x


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    if threshold:
        raise NotImplementedError("sim.tf: relu(threshold=...) is not supported; use alpha/max_value.")
    y = tf.nn.relu(x)
    if max_value is not None:
        y = tf.minimum(y, max_value)
    if alpha:
        y = y - alpha * tf.nn.relu(-x)
    return y


def sigmoid(x):
    return _remember_logits(tf.nn.sigmoid(x), x, "sigmoid")


def softmax(x, axis=-1):
    return _remember_logits(tf.nn.softmax(x, axis=axis), x, "softmax") if axis == -1 else tf.nn.softmax(x, axis=axis)


def tanh(x):
    return tf.math.tanh(x)


def elu(x, alpha=1.0):
    return tf.nn.elu(x) if alpha == 1.0 else tf.where(x > 0, x, alpha * (tf.exp(x) - 1.0))


def gelu(x, approximate=False):
    return tf.nn.gelu(x, approximate=approximate)


def softplus(x):
    return tf.math.softplus(x)


def swish(x):
    return x * tf.nn.sigmoid(x)


def exponential(x):
    return tf.exp(x)


_BY_NAME = {
    "linear": linear, "relu": relu, "sigmoid": sigmoid, "softmax": softmax, "tanh": tanh,
    "elu": elu, "gelu": gelu, "softplus": softplus, "swish": swish, "silu": swish,
    "exponential": exponential,
}


def get(identifier):
    """A callable from a name, a callable or None (linear)."""
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    raise ValueError(
        _errors.msg("unknown_name", f"Unknown activation function: '{identifier}'. Please ensure "
                    "you are using a `keras.utils.custom_object_scope` and that this object is "
                    "included in the scope.", kind="activation", name=identifier,
                    known=_errors.known_list(_BY_NAME))
    )


def serialize(fn):
    return getattr(fn, "__name__", str(fn))


def deserialize(name):
    return get(name)
