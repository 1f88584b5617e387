"""``tf.keras.datasets`` (TensorFlow names; implemented in sim.keras.datasets)."""
from sim.tf.keras.datasets import mnist  # noqa: F401
