"""Warmup schedules (Goyal et al. 2017 §2.2): start small, then hand over to the normal schedule.

Both are ``tf.keras.optimizers.schedules.LearningRateSchedule`` subclasses, so any optimizer takes
them as its ``learning_rate`` and they serialize with ``get_config``/``from_config``. Their
arguments are those of the TensorFlow Model Garden's ``tfm.optimization.LinearWarmup``:

- ``GradualWarmup``: for ``step < warmup_steps`` the rate grows by a constant amount each step,
  ``warmup_learning_rate + step / warmup_steps * (target - warmup_learning_rate)``, where
  ``target`` is the after-warmup schedule's value at ``warmup_steps`` (or the constant itself);
  from ``warmup_steps`` on, the after-warmup schedule. Goyal et al.'s gradual warmup.
- ``ConstantWarmup``: ``warmup_learning_rate`` for ``step < warmup_steps``, then a jump to the
  after-warmup schedule. Goyal et al. found it worse than no warmup for large batches.

``after_warmup_lr_sched`` is a number or another schedule (e.g. ``PiecewiseConstantDecay`` for
a step decay); a schedule is called with the optimizer's own step, not shifted by the warmup.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t
from sim.keras.optimizers import schedules


class _Warmup(schedules.LearningRateSchedule):
    def __init__(self, after_warmup_lr_sched, warmup_steps, warmup_learning_rate, name=None):
        if isinstance(after_warmup_lr_sched, dict):      # a serialized schedule (from_config)
            after_warmup_lr_sched = schedules.deserialize(after_warmup_lr_sched)
        if not isinstance(after_warmup_lr_sched, schedules.LearningRateSchedule):
            after_warmup_lr_sched = float(after_warmup_lr_sched)
        if isinstance(warmup_steps, bool) or int(warmup_steps) != warmup_steps or warmup_steps < 0:
            raise ValueError(t("scaling.warmup_steps", value=warmup_steps))
        self.after_warmup_lr_sched = after_warmup_lr_sched
        self.warmup_steps = int(warmup_steps)
        self.warmup_learning_rate = float(warmup_learning_rate)
        self.name = name

    def _after(self, step) -> np.float32:
        sched = self.after_warmup_lr_sched
        if isinstance(sched, schedules.LearningRateSchedule):
            return np.float32(sched.value(step))
        return np.float32(sched)

    def value(self, step) -> np.float32:
        s = np.float32(schedules._step(step))
        if s < self.warmup_steps:
            return self._warming(s)
        return self._after(s)

    def _warming(self, step) -> np.float32:
        raise NotImplementedError

    def get_config(self):
        sched = self.after_warmup_lr_sched
        if isinstance(sched, schedules.LearningRateSchedule):
            sched = schedules.serialize(sched)
        return {"after_warmup_lr_sched": sched, "warmup_steps": self.warmup_steps,
                "warmup_learning_rate": self.warmup_learning_rate, "name": self.name}


class GradualWarmup(_Warmup):
    """Linear ramp from ``warmup_learning_rate`` to the after-warmup rate over ``warmup_steps``."""

    def _warming(self, step):
        start = np.float32(self.warmup_learning_rate)
        target = self._after(self.warmup_steps)
        return start + np.float32(step) / np.float32(self.warmup_steps) * (target - start)


class ConstantWarmup(_Warmup):
    """``warmup_learning_rate`` during the warmup, then the after-warmup schedule."""

    def _warming(self, step):
        return np.float32(self.warmup_learning_rate)


def learning_rates(schedule, steps: int) -> np.ndarray:
    """The rate at steps 0 .. steps-1 (a number, a schedule, or anything with ``value``)."""
    if isinstance(schedule, schedules.LearningRateSchedule):
        return np.array([schedule.value(s) for s in range(steps)], dtype=np.float64)
    return np.full(steps, float(schedule))
