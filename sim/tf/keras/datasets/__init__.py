"""``tf.keras.datasets`` (TensorFlow names; implemented in sim.keras.datasets)."""
from sim.tf.keras.datasets import mnist  # noqa: F401
from sim.tf._lazy import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("sim.tf.keras.datasets")
