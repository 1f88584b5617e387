"""``tf.keras.callbacks`` (TensorFlow names; implemented in sim.keras.callbacks)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.callbacks")
del reexport
