"""``tf.keras.activations`` (TensorFlow names; implemented in sim.keras.activations)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.activations")
del reexport
