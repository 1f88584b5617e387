"""tf.tpu: only what TPUStrategy needs (tf.tpu.experimental)."""
from sim.tf.tpu import experimental  # noqa: F401
