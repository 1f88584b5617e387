"""``tf.keras.initializers`` (TensorFlow names; implemented in sim.keras.initializers)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.initializers")
del reexport
