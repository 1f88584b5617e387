"""Dropping the variables without a gradient before an update, as Keras does (TF's texts)."""
from __future__ import annotations

import warnings

from sim.keras import _errors


def filter_empty_gradients(grads_and_vars):
    """Drop (None, var) pairs; all None is an error (TF's text)."""
    grads_and_vars = tuple(grads_and_vars)
    if not grads_and_vars:
        return grads_and_vars
    filtered = tuple((g, v) for g, v in grads_and_vars if g is not None)
    if not filtered:
        variable = ([v.name for _, v in grads_and_vars],)
        raise ValueError(_errors.msg(
            "no_gradients",
            f"No gradients provided for any variable: {variable}. "
            f"Provided `grads_and_vars` is {grads_and_vars}."))
    if len(filtered) < len(grads_and_vars):
        missing = [v.name for g, v in grads_and_vars if g is None]
        warnings.warn(
            f"Gradients do not exist for variables {missing} when minimizing the loss. If you're "
            "using `model.compile()`, did you forget to provide a `loss` argument?", stacklevel=3)
    return filtered
