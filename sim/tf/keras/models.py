"""``tf.keras.models`` (TensorFlow names; implemented in sim.keras.models)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.models")
del reexport
