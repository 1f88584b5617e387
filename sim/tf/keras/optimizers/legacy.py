"""``tf.keras.optimizers.legacy``."""
from sim.keras.optimizers.legacy import SGD, Adagrad, Adam, Optimizer, RMSprop  # noqa: F401
