"""``tf.keras.backend`` (TensorFlow names; implemented in sim.keras.backend)."""
from sim.keras.backend import *  # noqa: F401,F403
from sim.keras.backend import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
