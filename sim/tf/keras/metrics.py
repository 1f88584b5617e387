"""``tf.keras.metrics`` (TensorFlow names; implemented in sim.keras.metrics)."""
from sim.keras.metrics import *  # noqa: F401,F403
from sim.keras.metrics import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
