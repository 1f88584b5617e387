"""``tf.keras.layers`` (TensorFlow names; implemented in sim.keras.layers)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.layers")
del reexport
