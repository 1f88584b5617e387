"""``tf.keras.optimizers`` (with ``legacy`` and ``schedules``)."""
from sim.keras.optimizers import (SGD, Adagrad, Adam, Optimizer, RMSprop, deserialize, get,  # noqa: F401
                                  serialize)
from sim.tf.keras.optimizers import legacy, schedules  # noqa: F401
from sim.keras.mixed_precision import LossScaleOptimizer  # noqa: F401  (Keras 3's place for it)
from sim.tf._lazy import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("sim.tf.keras.optimizers")
