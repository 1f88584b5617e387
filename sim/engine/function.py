"""``tf.function``: accepted in every form, runs the Python function eagerly.

The engine has no graphs; eager execution gives the same numbers. ``tf.function(fn)``,
``@tf.function`` and ``@tf.function(jit_compile=True, reduce_retracing=True, ...)`` all work,
and the result keeps ``python_function`` like TensorFlow's ``Function``.
"""
from __future__ import annotations

import functools

_run_eagerly = [False]


class Function:
    """A ``tf.function``-decorated callable; calling it calls the Python function."""

    def __init__(self, fn, **options):
        self.python_function = fn
        self.function_spec = options
        self.input_signature = options.get("input_signature")
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        from sim.engine.errors import EndOfDataset, OutOfRangeError
        try:
            return _as_tensors(self.python_function(*args, **kwargs))
        except EndOfDataset:    # a dataset's next() inside the function: TensorFlow's graph error
            raise OutOfRangeError(None, None, "End of sequence") from None

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self.__call__, obj)

    def get_concrete_function(self, *args, **kwargs):
        return self

    def experimental_get_tracing_count(self):
        return 0

    def __repr__(self):
        return f"<sim.tf.function {getattr(self.python_function, '__name__', '?')}>"


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
    """``tf.config.run_functions_eagerly``: always true here; kept for code that calls it."""
    _run_eagerly[0] = bool(run_eagerly)


def functions_run_eagerly():
    return True
