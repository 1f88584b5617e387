"""Dropping the variables without a gradient before an update, as Keras does (TF's texts)."""
from __future__ import annotations

import logging
import warnings

from sim.keras import _errors
from sim.keras.version import keras_major


def filter_empty_gradients(grads_and_vars):
    """Drop (None, var) pairs; all None is an error (TF's text). Keras 3 warns with the
    variables' paths (base_optimizer._filter_empty_gradients); tf-keras logs their names on
    TensorFlow's logger (optimizers/utils.py)."""
    grads_and_vars = tuple(grads_and_vars)
    if not grads_and_vars:
        return grads_and_vars
    keras3 = keras_major() == 3
    filtered = tuple((g, v) for g, v in grads_and_vars if g is not None)
    if not filtered:
        if keras3:
            raise ValueError(_errors.msg("no_gradients", "No gradients provided for any variable."))
        variable = ([v.name for _, v in grads_and_vars],)
        raise ValueError(_errors.msg(
            "no_gradients",
            f"No gradients provided for any variable: {variable}. "
            f"Provided `grads_and_vars` is {grads_and_vars}."))
    if len(filtered) < len(grads_and_vars):
        missing = [getattr(v, "path", v.name) if keras3 else v.name
                   for g, v in grads_and_vars if g is None]
        if keras3:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                          "loss. If using `model.compile()`, did you forget to provide a `loss` "
                          "argument?", stacklevel=3)
        else:
            logging.getLogger("tensorflow").warning(
                "Gradients do not exist for variables %s when minimizing the loss. If you're "
                "using `model.compile()`, did you forget to provide a `loss` argument?", missing)
    return filtered
