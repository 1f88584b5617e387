"""``tf.linalg``: the matrix products the course uses."""
from __future__ import annotations

from sim.engine.ops.array import transpose as matrix_transpose  # noqa: F401
from sim.engine.ops.linalg import matmul, norm, tensordot  # noqa: F401
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.linalg")
