"""``tf.keras.initializers`` (TensorFlow names; implemented in sim.keras.initializers)."""
from sim.keras.initializers import *  # noqa: F401,F403
from sim.keras.initializers import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
