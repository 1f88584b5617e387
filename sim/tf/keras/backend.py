"""``tf.keras.backend`` (TensorFlow names; implemented in sim.keras.backend)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.backend")
del reexport
