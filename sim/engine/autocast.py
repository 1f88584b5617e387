"""Reading a Keras weight inside a mixed-precision layer's call gives it in the compute dtype.

Keras 3's ``AutocastScope`` (keras/src/backend/common/variables.py) and tf-keras's
``enable_auto_cast_variables`` (AutoCastVariable): while a layer whose compute dtype differs
from its variable dtype runs ``call``, a floating variable Keras made is read as
``tf.cast(value, compute_dtype)``. The cast is an op on the tape, so the gradient reaches the
float32 variable as float32 (what the optimizer and the all-reduce see). Outside any scope
(``dtype`` None, the float32 path) a read costs one attribute test more.
"""
from __future__ import annotations

from contextlib import contextmanager

dtype = None   # the DType reads of autocast variables are cast to, or None (no scope)


def current():
    return dtype


@contextmanager
def scope(new_dtype):
    """Reads of autocast variables inside give ``new_dtype`` (None: their own dtype)."""
    global dtype
    outer, dtype = dtype, new_dtype
    try:
        yield
    finally:
        dtype = outer


def cast_read(variable, tensor):
    """The read ``tensor`` of ``variable`` in the scope's dtype (floating values only)."""
    if dtype is None or not tensor.dtype.is_floating or tensor.dtype is dtype:
        return tensor
    from sim.engine.ops.math import cast
    return cast(tensor, dtype)
