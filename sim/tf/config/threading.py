"""``tf.config.threading``: accepted and ignored (the simulator runs in one thread)."""
from sim.tf._lazy import module_getattr


def set_inter_op_parallelism_threads(num_threads):
    pass


def set_intra_op_parallelism_threads(num_threads):
    pass


__getattr__ = module_getattr("sim.tf.config.threading")
