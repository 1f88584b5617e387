"""``tf.keras.losses`` (TensorFlow names; implemented in sim.keras.losses)."""
from sim.keras.losses import *  # noqa: F401,F403
from sim.keras.losses import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
