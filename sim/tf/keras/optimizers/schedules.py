"""``tf.keras.optimizers.schedules``."""
from sim.keras.optimizers.schedules import (CosineDecay, ExponentialDecay,  # noqa: F401
                                            InverseTimeDecay, LearningRateSchedule,
                                            PiecewiseConstantDecay, PolynomialDecay, deserialize,
                                            serialize)
