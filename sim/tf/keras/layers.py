"""``tf.keras.layers`` (TensorFlow names; implemented in sim.keras.layers)."""
from sim.keras.layers import *  # noqa: F401,F403
from sim.keras.layers import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
