"""``tf.keras.utils`` (TensorFlow names; implemented in sim.keras.utils)."""
from sim.keras.utils import *  # noqa: F401,F403
from sim.keras.utils import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
