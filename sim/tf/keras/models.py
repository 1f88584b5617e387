"""``tf.keras.models`` (TensorFlow names; implemented in sim.keras.models)."""
from sim.keras.models import *  # noqa: F401,F403
from sim.keras.models import __dict__ as _d

globals().update({k: v for k, v in _d.items() if not k.startswith("__")})
del _d
