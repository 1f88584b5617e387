"""``tf.keras.regularizers`` (TensorFlow names; implemented in sim.keras.regularizers)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.regularizers")
del reexport
