"""``tf.keras.metrics`` (TensorFlow names; implemented in sim.keras.metrics)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.metrics")
del reexport
