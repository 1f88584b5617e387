"""``tf.keras.losses`` (TensorFlow names; implemented in sim.keras.losses)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.losses")
del reexport
