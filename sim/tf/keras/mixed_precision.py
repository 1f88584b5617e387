"""``tf.keras.mixed_precision``."""
from sim.keras.mixed_precision import (DTypePolicy, LossScaleOptimizer, Policy,  # noqa: F401
                                       dtype_policy, global_policy, set_dtype_policy,
                                       set_global_policy)
from sim.tf._lazy import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("sim.tf.keras.mixed_precision")
