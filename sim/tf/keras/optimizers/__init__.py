"""``tf.keras.optimizers`` (with ``legacy`` and ``schedules``)."""
from sim.keras.optimizers import (SGD, Adagrad, Adam, Optimizer, RMSprop, deserialize, get,  # noqa: F401
                                  serialize)
from sim.tf.keras.optimizers import legacy, schedules  # noqa: F401
