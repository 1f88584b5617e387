"""Steps to the target at a batch size: McCandlish's curve, the learning-rate rule and warmup.

``StepsCurve`` holds S(B) = S_min (1 + B_crit / B) (``sim.scaling.critical_batch``) for one
target, where it came from (``source``: measured here, fitted, assumed from a published result),
and the recipe the steps assume: the learning rate at batch B from ``base_learning_rate`` at
``base_batch`` by ``rule`` (``sim.scaling.lr_rules``), and a gradual warmup over
``warmup_examples`` examples (Goyal et al. warm up for a number of epochs, so a larger batch
warms up in fewer steps). A linear ramp from 0 gives half the progress of the full rate, so
warmup adds half its steps [derived]:

    steps(B) = S_min (1 + B_crit / B) + warmup_steps(B) / 2.

A rate above ``max_learning_rate`` (the largest stable one, where known) diverges: inf steps.
Where steps were ``measured`` at a batch (warmup included, in the run itself), they are used as
they are; the fitted curve fills in the other batches.

Asynchronous rows are priced by ``sim.plan.asynchrony`` (derived from the measured staleness,
momentum 0 here, ``max_learning_rate`` as the stability edge).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sim.scaling.critical_batch import StepsFit, fit_steps_curve
from sim.scaling.lr_rules import scaled_learning_rate

SOURCES = ("measured", "fitted", "assumed")


@dataclass(frozen=True)
class StepsCurve:
    s_min: float
    b_crit: float
    target: str                       # what "done" means, in words (e.g. "loss <= 5% of start")
    source: str = "fitted"            # one of SOURCES
    cite: str = ""                    # where the numbers come from
    rule: str = "linear"
    base_learning_rate: float = 0.1
    base_batch: int = 256
    warmup_examples: float = 0.0
    max_learning_rate: float = math.inf
    measured: tuple = ()              # ((batch, steps), ...): measured here, used as they are

    @property
    def e_min(self) -> float:
        """The fewest examples to the target (a tiny batch's run): S_min x B_crit."""
        return self.s_min * self.b_crit

    def learning_rate(self, batch) -> float:
        return scaled_learning_rate(self.base_learning_rate, self.base_batch, batch, self.rule)

    def warmup_steps(self, batch) -> float:
        return math.ceil(self.warmup_examples / batch) if self.warmup_examples else 0

    def steps(self, batch) -> float:
        """Steps (updates) to the target at ``batch``, warmup included; inf if the rate diverges."""
        if self.learning_rate(batch) > self.max_learning_rate:
            return math.inf
        for b, s in self.measured:
            if b == batch:
                return float(s)
        return StepsFit(self.s_min, self.b_crit).steps(batch) + self.warmup_steps(batch) / 2

    def status(self, batch) -> str:
        """Where the steps at ``batch`` come from: measured, interpolated (the fit), or not reached."""
        if not math.isfinite(self.steps(batch)):
            return "not reached"
        return "published" if any(b == batch for b, _ in self.measured) else "interpolated"

    def momentum(self, batch) -> float:
        return 0.0

    @property
    def edge_rate(self) -> float:
        return self.max_learning_rate


def fitted_curve(batch_sizes, steps, target: str, source: str = "fitted", cite: str = "",
                 **recipe) -> StepsCurve:
    """The curve through measured (batch, steps) points, by ``fit_steps_curve``'s least squares."""
    fit = fit_steps_curve(batch_sizes, steps)
    return StepsCurve(fit.s_min, fit.b_crit, target, source, cite, **recipe)
