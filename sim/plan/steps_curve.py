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

Asynchronous parameter servers (``async_updates``): N workers each update with their own batch
b, every gradient ``N - 1`` updates stale on average. With a small learning rate, N stale updates
of batch b make the progress of one synchronous update of batch N b (the updates barely change
the gradient, so their order does not matter) [derived], so async needs N S(N b) updates where
fresh gradients would need S(b): the staleness penalty is N S(N b) - S(b) updates, nothing below
the critical batch and most of the run far above it. Lesson 07's simulated parameter servers
(``sim.scaling.staleness_regimes``) agree within 15% at a small rate and diverge at a large one, as
``tests/test_plan_staleness_model.py`` checks: the model does not price that risk.
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

    def async_updates(self, workers: int, batch: int) -> tuple[float, float]:
        """(updates to target, staleness penalty in updates) for ``workers`` async workers."""
        updates = workers * self.steps(workers * batch)
        return updates, updates - self.steps(batch)


def fitted_curve(batch_sizes, steps, target: str, source: str = "fitted", cite: str = "",
                 **recipe) -> StepsCurve:
    """The curve through measured (batch, steps) points, by ``fit_steps_curve``'s least squares."""
    fit = fit_steps_curve(batch_sizes, steps)
    return StepsCurve(fit.s_min, fit.b_crit, target, source, cite, **recipe)


IMAGENET_EXAMPLES = 1_281_167

# ResNet-50 on ImageNet to 76% top-1 (an assumption read from two papers, not a measurement):
# 90 epochs at small batches (Goyal et al. 2017, whose linear rule held to batch 8k) and a
# critical batch "in the tens of thousands" (McCandlish et al. 2018): B_crit = 16384 assumed.
RESNET50_IMAGENET = StepsCurve(
    s_min=90 * IMAGENET_EXAMPLES / 16384, b_crit=16384, target="top-1 76%", source="assumed",
    cite="Goyal et al. 2017; McCandlish et al. 2018",
    rule="linear", base_learning_rate=0.1, base_batch=256, warmup_examples=5 * IMAGENET_EXAMPLES)

CURVES = {"resnet50": RESNET50_IMAGENET}
