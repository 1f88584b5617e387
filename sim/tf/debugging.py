"""``tf.debugging``: the checks learners use to find NaNs and shape mistakes."""
from __future__ import annotations

import numpy as np

from sim.engine.errors import InvalidArgumentError
from sim.engine.tensor import convert_to_tensor
from sim.tf._lazy import module_getattr


def check_numerics(tensor, message, name=None):
    t = convert_to_tensor(tensor)
    if not np.all(np.isfinite(t._v)):
        raise InvalidArgumentError(f"{message} : Tensor had NaN or Inf values")
    return t


def assert_equal(x, y, message=None, summarize=None, name=None):
    if not np.all(np.asarray(convert_to_tensor(x)) == np.asarray(convert_to_tensor(y))):
        raise InvalidArgumentError(message or "Condition x == y did not hold element-wise.")


def set_log_device_placement(enabled):
    """Accepted; the simulator does not log placement."""


__getattr__ = module_getattr("sim.tf.debugging")
