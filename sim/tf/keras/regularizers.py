"""``tf.keras.regularizers`` (TensorFlow names; implemented in sim.keras.regularizers)."""
from sim.keras.regularizers import *  # noqa: F401,F403
from sim.keras.regularizers import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
