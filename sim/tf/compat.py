"""``tf.compat``: TF1 is not part of the course."""
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.compat")
