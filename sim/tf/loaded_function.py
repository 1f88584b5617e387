"""A tf.function loaded from a SavedModel: it runs as it was traced, and only so.

TensorFlow's loaded function has a concrete function per traced call and no Python; a call unlike
every one of them raises "Could not find matching concrete function", listing them, and a Python
number also fits a traced scalar tensor of its kind (TensorFlow converts it). sim keeps the traced
calls' keys (sim/engine/tracing_type.py) and the source (saved_module.py) to do the same.
"""
from __future__ import annotations

import functools
import inspect

from sim.engine import tracing_type


class LoadedFunction:
    """A restored tf.function: callable as it was traced, and only so (a Python number also fits
    a traced scalar tensor of its kind, as TensorFlow converts it)."""

    def __init__(self, fn, name, calls, method, relaxed, any_call):
        from sim.engine.function import Function
        self._function = Function(fn, reduce_retracing=relaxed)
        self._name, self._calls, self._method, self._relaxed, self._any = name, calls, method, relaxed, any_call
        params = list(inspect.signature(fn).parameters)
        self._params = params[1:] if method else params

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self.__call__, obj)

    def _fits(self, key):
        return any(tracing_type.matches(c, key, self._relaxed) for c in self._calls)

    def __call__(self, *args, **kwargs):
        own = args[1:] if self._method else args
        if not self._any:
            if not self._fits(tracing_type.call_key(own, kwargs)):
                converted = [_as_scalar_tensor(a) for a in own]
                if not self._fits(tracing_type.call_key(converted, kwargs)):
                    raise ValueError(self._no_match(own, kwargs))
                own = converted
                args = args[:1] + tuple(own) if self._method else tuple(own)
        return self._function(*args, **kwargs)

    def _no_match(self, own, kwargs):
        got = "".join(f"    * {_got(a, n)}\n" for a, n in zip(own, self._params))
        options = "\n\n".join(
            f"Option {i + 1}:\n  Positional arguments ({len(c[0])} total):\n"
            + "".join(f"    * {_spec_text(k, n)}\n" for k, n in zip(c[0], self._params))
            + "  Keyword arguments: {}" for i, c in enumerate(self._calls))
        return ("Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
                f"  Positional arguments ({len(own)} total):\n{got}  Keyword arguments: {kwargs!r}\n\n"
                f" Expected these arguments to match one of the following {len(self._calls)} option(s):"
                f"\n\n{options}")

    def __repr__(self):
        return f"<sim.tf restored function {self._name}>"


def _as_scalar_tensor(x):
    from sim.engine.tensor import convert_to_tensor
    return convert_to_tensor(x) if isinstance(x, (bool, int, float)) else x


def _got(x, name):
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return f"<tf.Tensor '{name}:0' shape={tuple(x.shape)} dtype={x.dtype.name}>"
    return repr(x)


def _spec_text(key, name):
    if tracing_type.is_spec(key):
        shape = "None" if key[1] is None else str(tuple(key[1]))
        return f"TensorSpec(shape={shape}, dtype=tf.{key[2]}, name={name!r})"
    if isinstance(key, tuple) and len(key) == 2 and key[0] == "py":
        return repr(key[1])
    return repr(key)
