"""``tf.dtypes``: the DType objects and ``as_dtype``."""
from __future__ import annotations

from sim.engine.dtypes import (DType, as_dtype, bfloat16, bool, double, float16,  # noqa: F401
                               float32, float64, half, int8, int16, int32, int64, string, uint8,
                               uint16, uint32, uint64)
from sim.engine.ops.math import cast  # noqa: F401
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.dtypes")
