"""The positive-count check shared by ``batch`` and ``shuffle`` (TensorFlow's error text)."""
from __future__ import annotations

import numpy as np


def _positive(value, key):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        from sim.i18n import t
        from sim.engine.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"{key.split('.')[-1]} must be greater than zero. "
                                   + t(key, value=value))
    return int(value)
