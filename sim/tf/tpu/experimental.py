"""tf.tpu.experimental: initialising the simulated TPU system."""
from sim.distribute.tpu import initialize_tpu_system, shutdown_tpu_system  # noqa: F401
