"""``tf.function``: traced once per kind of call, as TensorFlow does, then run again without Python.

TensorFlow runs the Python body once per new kind of call (its trace: tracing_type.py says which
calls are new) and later calls run the graph, so a Python ``print`` or a global counter in the
body happens at the trace only, and Python values the body reads are the ones it saw then. The
engine has no graphs: a later call runs the body again, but as a copy whose globals and closure
are the ones the trace saw, with ``print`` silent. Ops (``tf.print``, a variable's assign, a
generator's draw, a dataset's next) run every time, as graph ops do. What the copy cannot hide:
a mutation of a Python object the body reaches (``some_list.append``) happens at every call.
``tf.function(fn)``, ``@tf.function`` and ``@tf.function(jit_compile=True, ...)`` all work.
"""
from __future__ import annotations

import functools
import threading
import types

from sim.engine import tracing_type

_run_eagerly = [False]


def _silent(*args, **kwargs):
    """``print`` in a tf.function after its trace: TensorFlow prints at the trace only."""


def _plain(fn):
    """(Python function, the instance it is bound to or None); (None, None) for other callables."""
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return fn.__func__, fn.__self__
    return (fn, None) if isinstance(fn, types.FunctionType) else (None, None)


def _names(code):
    """Every global name the code (and the functions defined inside it) may read."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


class _Trace:
    """What one trace saw: the globals the body reads and its closure, to run later calls as
    that graph (only the names it uses are kept: a notebook's other globals are not held)."""

    def __init__(self, key, fn):
        self.key = key
        plain, _ = _plain(fn)
        self.globals = None if plain is None else {
            n: plain.__globals__[n] for n in _names(plain.__code__) if n in plain.__globals__}
        self.cells = tuple(_contents(c) for c in (getattr(plain, "__closure__", None) or ()))


_EMPTY = object()


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:          # a closure variable not yet assigned
        return _EMPTY


def _cell(value):
    return types.CellType() if value is _EMPTY else types.CellType(value)


class Function:
    """A ``tf.function``-decorated callable: traces on a new kind of call, replays on a known one."""

    def __init__(self, fn, **options):
        self.python_function = fn
        self.function_spec = options
        self.input_signature = options.get("input_signature")
        self._reduce_retracing = bool(options.get("reduce_retracing"))
        self._traces: list[_Trace] = []  # the traces calls run (a relaxed one replaces those it covers)
        self._made: list = []  # the key of every trace made: TensorFlow's count, per instance too
        self._lock = threading.RLock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        from sim.engine.errors import EndOfDataset, OutOfRangeError
        try:
            return _as_tensors(self._call(args, kwargs))
        except EndOfDataset:    # a dataset's next() inside the function: TensorFlow's graph error
            raise OutOfRangeError(None, None, "End of sequence") from None

    def _call(self, args, kwargs):
        if _run_eagerly[0]:
            return self.python_function(*args, **kwargs)
        key = self._key(args, kwargs)
        trace = self._trace_for(key)
        if trace is None:
            result = self.python_function(*args, **kwargs)     # the trace: Python runs
            self._keep(key)
            return result
        return self._replay(trace, args, kwargs)

    def _key(self, args, kwargs):
        if self.input_signature is not None:    # one trace, whatever the call
            return ("input_signature",)
        return tracing_type.call_key(args, kwargs)

    def _trace_for(self, key):
        with self._lock:
            for trace in self._traces:
                if tracing_type.matches(trace.key, key, self._reduce_retracing):
                    return trace
        return None

    def _keep(self, key):
        """Record a finished trace (one that raised is not kept, as in TensorFlow)."""
        with self._lock:
            self._made.append(key)
            if self._reduce_retracing:
                for i, trace in enumerate(self._traces):
                    general = tracing_type.relaxed(trace.key, key)
                    if general is not None:
                        self._traces[i] = _Trace(general, self.python_function)
                        return
            self._traces.append(_Trace(key, self.python_function))

    def _replay(self, trace, args, kwargs):
        plain, bound = _plain(self.python_function)
        if trace.globals is None or plain is None:     # not a Python function (a callable object)
            return self.python_function(*args, **kwargs)
        shadow = types.FunctionType(plain.__code__, {**plain.__globals__, **trace.globals, "print": _silent},
                                    plain.__name__, plain.__defaults__,
                                    tuple(_cell(v) for v in trace.cells) or None)
        shadow.__kwdefaults__ = plain.__kwdefaults__
        return shadow(*args, **kwargs) if bound is None else shadow(bound, *args, **kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return BoundFunction(self, obj)

    def get_concrete_function(self, *args, **kwargs):
        return self

    def experimental_get_tracing_count(self):
        """How many traces this function has (TensorFlow's count)."""
        return len(self._made)

    def _keys_for(self, instance):
        """The keys of the traces made for calls whose first argument was ``instance`` (a method's)."""
        first = (tracing_type.tracing_type(instance),)
        with self._lock:
            return [key for key in self._made if key[0][:1] == first]

    def __repr__(self):
        return f"<sim.tf.function {getattr(self.python_function, '__name__', '?')}>"


class BoundFunction:
    """``obj.method`` of a tf.function method: its calls and its trace count are the instance's."""

    def __init__(self, function, obj):
        self._function, self._obj = function, obj
        self.python_function = functools.partial(function.python_function, obj)
        functools.update_wrapper(self, function.python_function)

    def __call__(self, *args, **kwargs):
        return self._function(self._obj, *args, **kwargs)

    def __getattr__(self, name):        # input_signature, function_spec...: the function's
        if name.startswith("__") or name in ("_function", "_obj"):
            raise AttributeError(name)
        return getattr(self._function, name)

    def experimental_get_tracing_count(self):
        return len(self._function._keys_for(self._obj))

    def get_concrete_function(self, *args, **kwargs):
        return self

    def __repr__(self):
        return f"<sim.tf.function {getattr(self._function.python_function, '__name__', '?')} of {self._obj!r}>"


def _as_tensors(result):
    """Python numbers, arrays and variables returned by a tf.function come back as tensors, as in TF."""
    import numpy as np

    from sim.engine import nest
    from sim.engine.tensor import convert_to_tensor

    def conv(x):
        if isinstance(x, (int, float, np.ndarray, np.generic)) and not isinstance(x, bool):
            return convert_to_tensor(x)
        if hasattr(x, "_engine_variable") or (hasattr(x, "_as_tensor") and hasattr(x, "assign")):
            return convert_to_tensor(x)    # a returned variable is its value (a graph output)
        return x
    return nest.map_structure(conv, result) if result is not None else None


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """Decorator or call: returns a Function that runs ``func`` eagerly."""
    options = dict(input_signature=input_signature, jit_compile=jit_compile,
                   reduce_retracing=reduce_retracing)
    if func is None:
        return lambda f: Function(f, **options)
    return Function(func, **options)


def run_functions_eagerly(run_eagerly):
    """``tf.config.run_functions_eagerly(True)``: every call runs the Python body, as TensorFlow's
    debugging mode does (a ``print`` prints each time)."""
    _run_eagerly[0] = bool(run_eagerly)


def functions_run_eagerly():
    return _run_eagerly[0]
