"""``tf.random``: seeded random tensors following TensorFlow's global/op seed rules."""
from __future__ import annotations

from sim.engine.ops.random import (Generator, categorical, get_global_generator,  # noqa: F401
                                   normal, set_global_generator, set_seed, shuffle,
                                   truncated_normal, uniform)
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.random")
