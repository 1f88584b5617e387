"""What TensorFlow checks of a Python value (not a NumPy array) before it becomes a tensor."""
from __future__ import annotations

import numpy as np


def _holds_float64(value):
    if isinstance(value, (list, tuple)):
        return any(_holds_float64(x) for x in value)
    return isinstance(value, (np.ndarray, np.float64)) and value.dtype == np.float64


def _has_bool(value):
    """A Python sequence mixing bools with numbers (TensorFlow refuses it)."""
    if isinstance(value, (list, tuple)):
        return any(_has_bool(x) for x in value)
    return isinstance(value, (bool, np.bool_))


def _check_fits(value, dtype):
    """A Python value asked for ``dtype`` must be one of its kind: no float (1.5 or 2.0) becomes
    an integer or a bool, no int a bool (TensorFlow's PySeqToTFE_TensorHandle)."""
    if not (dtype.is_integer or dtype.is_bool):
        return
    natural = np.asarray(value).dtype.kind
    if natural == "f" or (dtype.is_bool and natural in "iu"):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
