"""``tf.keras.callbacks`` (TensorFlow names; implemented in sim.keras.callbacks)."""
from sim.keras.callbacks import *  # noqa: F401,F403
from sim.keras.callbacks import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
