"""``tf.experimental``: nothing simulated yet beyond the unsupported-name error."""
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.experimental")
