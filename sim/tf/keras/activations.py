"""``tf.keras.activations`` (TensorFlow names; implemented in sim.keras.activations)."""
from sim.keras.activations import *  # noqa: F401,F403
from sim.keras.activations import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
