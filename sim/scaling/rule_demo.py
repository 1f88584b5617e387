"""The classroom demo's numbers: loss curves at one batch size under one learning-rate rule.

Pure and quick (a few thousand SGD steps of the streaming regression), so the widget only
redraws and the tests call this directly. The base is batch 8 at its tuned rate; the chosen
batch gets the rate its rule gives, and both curves run the same number of steps.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.scaling.lr_rules import scaled_learning_rate
from sim.scaling.regression import DIVERGED_FACTOR, StreamingRegression, loss_curve

DEMO_BASE_BATCH, DEMO_BASE_LR, DEMO_STEPS = 8, 0.25, 150
DEMO_BATCHES = (8, 16, 32, 64, 128, 256, 512, 1024)
DEMO_RULES = ("none", "sqrt", "linear")


@dataclass(frozen=True)
class RuleCurves:
    batch: int
    rule: str
    learning_rate: float
    base: np.ndarray          # excess loss per step at the base batch and rate
    scaled: np.ndarray        # the same at ``batch`` with the rule's rate (inf once diverged)
    diverged_at: int | None   # the first step the scaled run blew up, if it did


def rule_curves(batch: int, rule: str, seed: int = 0, steps: int = DEMO_STEPS) -> RuleCurves:
    problem = StreamingRegression(seed=seed)
    rate = scaled_learning_rate(DEMO_BASE_LR, DEMO_BASE_BATCH, batch, rule)
    base = loss_curve(problem, DEMO_BASE_BATCH, DEMO_BASE_LR, steps, seed)
    scaled = loss_curve(problem, batch, rate, steps, seed)
    bad = ~np.isfinite(scaled) | (scaled > DIVERGED_FACTOR * scaled[0])
    first = int(np.argmax(bad)) if bad.any() else None
    if first is not None:
        scaled = scaled.copy()
        scaled[first:] = np.inf
    return RuleCurves(batch, rule, rate, base, scaled, first)
