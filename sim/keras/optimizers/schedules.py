"""Learning-rate schedules (``tf.keras.optimizers.schedules``): step -> learning rate.

The optimizer calls the schedule with its ``iterations`` count before each update, as Keras
does; values are computed in float32 like TensorFlow's.
"""
from __future__ import annotations

import math

import numpy as np

import sim.tf as tf
from sim.keras import _errors


class LearningRateSchedule:
    def __call__(self, step):
        return tf.constant(np.float32(self.value(step)), dtype=tf.float32)

    def value(self, step) -> float:
        raise NotImplementedError

    def get_config(self):
        raise NotImplementedError

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _step(step) -> float:
    return float(np.asarray(step.numpy() if hasattr(step, "numpy") else step))


class _RateDecay(LearningRateSchedule):
    """The arguments and progress (step / decay_steps, floored if staircase) both decays share."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def _progress(self, step):
        p = np.float32(_step(step)) / np.float32(self.decay_steps)
        return np.floor(p) if self.staircase else p

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    def value(self, step):
        p = self._progress(step)
        return np.float32(self.initial_learning_rate) * np.float32(self.decay_rate) ** np.float32(p)


class PiecewiseConstantDecay(LearningRateSchedule):
    def __init__(self, boundaries, values, name=None):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values")
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def value(self, step):
        s = _step(step)
        for b, v in zip(self.boundaries, self.values):
            if s <= b:
                return np.float32(v)
        return np.float32(self.values[-1])

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class InverseTimeDecay(_RateDecay):
    def value(self, step):
        p = self._progress(step)
        return np.float32(self.initial_learning_rate) / (np.float32(1.0) + np.float32(self.decay_rate) * p)


class PolynomialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def value(self, step):   # keras/src/optimizers/schedules: every term in float32
        f = np.float32
        s, steps = f(_step(step)), f(self.decay_steps)
        if self.cycle:
            steps = steps * (f(1) if s == 0 else np.ceil(s / f(self.decay_steps)))
        else:
            s = min(s, steps)
        p = s / steps
        ilr, elr = f(self.initial_learning_rate), f(self.end_learning_rate)
        return (ilr - elr) * np.power(f(1) - p, f(self.power)) + elr

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power,
                "cycle": self.cycle, "name": self.name}


class CosineDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name

    def value(self, step):   # float32 throughout, as Keras's _decay_function
        f = np.float32
        steps = f(self.decay_steps)
        fraction = min(f(_step(step)), steps) / steps
        cosine = f(0.5) * (f(1) + np.cos(f(math.pi) * fraction))
        return f(self.initial_learning_rate) * (f(1 - self.alpha) * cosine + f(self.alpha))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name}


def serialize(schedule):
    return {"class_name": type(schedule).__name__, "config": schedule.get_config()}


_BY_NAME = {cls.__name__: cls for cls in (ExponentialDecay, PiecewiseConstantDecay,
                                           InverseTimeDecay, PolynomialDecay, CosineDecay)}


def deserialize(config):
    cls = _BY_NAME.get(config.get("class_name"))
    if cls is None:
        name = config.get("class_name")
        raise ValueError(_errors.msg(
            "unknown_name", f"Unknown decay: '{name}'. Please ensure you are using a "
            "`keras.utils.custom_object_scope` and that this object is included in the scope.",
            kind="learning rate schedule", name=name, known=_errors.known_list(_BY_NAME)))
    return cls.from_config(config["config"])
