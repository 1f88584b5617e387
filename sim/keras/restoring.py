"""Weights restored from a file skip their initializers, as ``tf.saved_model.load``'s do.

TensorFlow's ``tf.saved_model.load`` creates each variable with the value its checkpoint holds:
no initializer runs and nothing random is drawn. sim rebuilds a Keras model from the directory's
``.keras`` file instead, so while it does (``with restoring():``) ``Layer.add_weight`` starts
every weight at zeros, overwritten by the file's values right after. What a learner sees is the
same; what differs is that no random numbers are consumed (SIM_SAME_INIT counts the draws, and
TensorFlow's load makes none).
"""
from __future__ import annotations

import contextlib
import threading

_state = threading.local()


def active() -> bool:
    """True while a SavedModel's variables are being restored in this thread."""
    return getattr(_state, "depth", 0) > 0


@contextlib.contextmanager
def restoring():
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1
