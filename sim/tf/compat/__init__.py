"""``tf.compat``: TF1 is not part of the course; ``tf.compat.v1`` holds the few names that
TensorFlow 2 tutorials still use (ConfigProto)."""
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.compat", ("v1",))
