"""``tf.keras.optimizers.legacy``."""
from sim.keras.optimizers.legacy import SGD, Adagrad, Adam, Optimizer, RMSprop  # noqa: F401
from sim.tf._lazy import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("sim.tf.keras.optimizers.legacy")
