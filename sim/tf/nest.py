"""``tf.nest``: flatten, map and rebuild nested structures (dicts in sorted key order)."""
from __future__ import annotations

from sim.engine.nest import (assert_same_structure, flatten, is_nested,  # noqa: F401
                             map_structure, pack_sequence_as)
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.nest")
