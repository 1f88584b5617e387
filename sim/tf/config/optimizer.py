"""``tf.config.optimizer``: graph options, accepted and ignored (everything runs eagerly)."""
from sim.tf._lazy import module_getattr

_jit = [False]


def set_jit(enabled):
    _jit[0] = enabled


def get_jit():
    return _jit[0]


def set_experimental_options(options):
    """Accepted; there is no graph optimizer to configure."""


__getattr__ = module_getattr("sim.tf.config.optimizer")
