"""``tf.keras.optimizers.schedules``."""
from sim.keras.optimizers.schedules import (CosineDecay, ExponentialDecay,  # noqa: F401
                                            InverseTimeDecay, LearningRateSchedule,
                                            PiecewiseConstantDecay, PolynomialDecay, deserialize,
                                            serialize)
from sim.tf._lazy import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("sim.tf.keras.optimizers.schedules")
