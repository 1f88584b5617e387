"""``tf.keras.datasets.mnist`` (TensorFlow names; implemented in sim.keras.datasets.mnist)."""
from sim.tf.keras._reexport import reexport

reexport(globals(), "sim.keras.datasets.mnist")
del reexport
