"""What makes a ``tf.function`` trace again: TensorFlow's rules for the key of a call.

TensorFlow's tf.function guide ("Rules of tracing"): a tensor counts by its shape and dtype, and
so does a variable (two variables of one shape and dtype share a trace; the random number guide
counts one). A Python number, string or None counts by its value, a list, tuple or dict by its
structure and items (a number by equality: 2 and 2.0 share a trace, and NaN matches NaN, as
TensorFlow's Literal does), a NumPy array by its shape and dtype, a dataset or iterator by its element_spec, a distributed value by its
components (a type says its own key with ``__tf_tracing_type__``, as in TensorFlow's
tracing protocol: sim's distributed values do). Any other object counts as itself, so each tf.random.Generator, Keras model or
``self`` of a method has a trace of its own. ``relaxed`` is ``reduce_retracing``: the shapes of
two keys that differ only there become one key with None where they differ.
"""
from __future__ import annotations

import numpy as np

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


class _NaN:
    """Stands for every NaN in a key (NaN is not equal to itself)."""


class Identity:
    """An object that counts as itself; it is held so that its id is never reused by another."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __eq__(self, other):
        return isinstance(other, Identity) and other.obj is self.obj

    def __hash__(self):
        return id(self.obj)

    def __repr__(self):
        return f"<{type(self.obj).__name__} at {id(self.obj):#x}>"


def tracing_type(x):
    """A hashable value equal for two arguments exactly when TensorFlow would reuse a trace."""
    from sim.engine.tensor import Tensor
    from sim.engine.variable import Variable

    if isinstance(x, _SCALARS):
        return ("py", _NaN if isinstance(x, float) and x != x else x)
    if isinstance(x, (Tensor, Variable)):
        kind = "Tensor" if isinstance(x, Tensor) else "Variable"
        return (kind, tuple(x.shape.as_list()) if x.shape.rank is not None else None, x.dtype.name)
    if isinstance(x, (np.ndarray, np.generic)):      # converted to a tensor of that dtype
        return ("Tensor", tuple(np.shape(x)), np.asarray(x).dtype.name)
    own = getattr(type(x), "__tf_tracing_type__", None)
    if own is not None:                               # TensorFlow's tracing protocol
        return own(x)
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return (type(x), tuple(tracing_type(v) for v in x))
    if type(x) in (list, tuple):
        return (type(x).__name__, tuple(tracing_type(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple(sorted(((repr(k), tracing_type(v)) for k, v in x.items()),
                                     key=lambda kv: kv[0])))
    spec = _element_spec(x)
    if spec is not None:
        return (type(x).__name__, repr(spec))
    return Identity(x)


def _element_spec(x):
    try:
        return getattr(type(x), "element_spec", None) and x.element_spec
    except Exception:  # noqa: BLE001 - a dataset that cannot say its spec counts as itself
        return None


def call_key(args, kwargs):
    return (tuple(tracing_type(a) for a in args),
            tuple(sorted((k, tracing_type(v)) for k, v in kwargs.items())))


def is_spec(key) -> bool:
    """A tensor's or variable's key: (kind, shape or None, dtype name)."""
    return isinstance(key, tuple) and len(key) == 3 and key[0] in ("Tensor", "Variable")


def matches(trace_key, key, relax=False) -> bool:
    """Whether a call of ``key`` runs the trace of ``trace_key`` (with ``reduce_retracing``, one
    whose shapes were generalized covers it)."""
    return trace_key == key or (relax and covers(trace_key, key))


def relaxed(a, b):
    """One key covering both, shapes generalized where they differ; None when more than shapes
    differ (TensorFlow's reduce_retracing)."""
    if a == b:
        return a
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        if is_spec(a) and a[0] == b[0] and a[2] == b[2]:
            return (a[0], _shape_between(a[1], b[1]), a[2])
        parts = [relaxed(x, y) for x, y in zip(a, b)]
        return None if any(p is None for p in parts) else tuple(parts)
    return None


def covers(general, key):
    """True when a call of ``key`` fits the trace of ``general`` (its None dims match any)."""
    if general == key:
        return True
    if isinstance(general, tuple) and isinstance(key, tuple) and len(general) == len(key):
        if is_spec(general):
            return (general[0] == key[0] and general[2] == key[2]
                    and _shape_fits(general[1], key[1]))
        return all(covers(g, k) for g, k in zip(general, key))
    return False


def _shape_between(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def _shape_fits(general, shape):
    if general is None:
        return True
    return shape is not None and len(general) == len(shape) and all(
        g is None or g == s for g, s in zip(general, shape))


def to_json(key):
    """A key as JSON (for a SavedModel's list of traced calls); an object counts by its type."""
    if isinstance(key, Identity):
        return {"object": type(key.obj).__name__}
    if key is _NaN:
        return {"nan": True}
    if isinstance(key, type):
        return {"type": key.__name__}
    if isinstance(key, tuple):
        return [to_json(k) for k in key]
    if isinstance(key, complex):
        return {"complex": [key.real, key.imag]}
    if isinstance(key, bytes):
        return {"bytes": key.decode("latin-1")}
    return key


def from_json(data):
    """The key ``to_json`` wrote (objects and types stay their JSON: no call can match them)."""
    if isinstance(data, list):
        return tuple(from_json(d) for d in data)
    if isinstance(data, dict):
        if data.get("nan"):
            return _NaN
        if "complex" in data:
            return complex(*data["complex"])
        if "bytes" in data:
            return data["bytes"].encode("latin-1")
        return ("unmatchable", repr(sorted(data.items())))
    return data
