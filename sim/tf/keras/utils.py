"""``tf.keras.utils`` (TensorFlow names; implemented in sim.keras.utils)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.utils")
del reexport
