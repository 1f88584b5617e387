"""``tf.compat.v1``: only ConfigProto (the parameter-server tutorial's cluster set-up uses it)."""
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.compat.v1", (), {
    "ConfigProto": "sim.distribute.ps.server:ConfigProto",
})
