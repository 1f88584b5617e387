"""The reference's experiments E1, E2 and E3 (shared/reference/scaling_and_staleness.md §3).

Each function runs one experiment exactly as the reference sets it up and returns its figures
(means or medians over 3 seeds, as the reference states them); the tests hold them to the
reference's pass criteria and lesson 08 plots them. Results are cached per argument set: the
lesson and the tests ask for the same runs more than once.

- E1: steps to target against batch size on the streaming regression (Shallue's regimes,
  McCandlish's curve, the best learning rate, the noise scale).
- E2: no, square-root and linear learning-rate scaling at a fixed budget of epochs (Goyal).
- E3: gradual warmup rescues a large batch at the linearly scaled rate, not every batch.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sim.keras.optimizers.schedules import PiecewiseConstantDecay
from sim.scaling.lr_rules import scaled_learning_rate
from sim.scaling.sweeps import StepsSweep, steps_to_target
from sim.scaling.teacher_mlp import N_TRAIN, StackedRuns, teacher_data, train_stacked
from sim.scaling.warmup import GradualWarmup, learning_rates

SEEDS = (0, 1, 2)

# E1: B = 1 .. 1024; rates over powers of sqrt(2) from 2^-8 to 4 / lambda_max (lambda_max = 1).
E1_BATCH_SIZES = tuple(2 ** i for i in range(11))
E1_LEARNING_RATES = tuple(2.0 ** (i / 2) for i in range(-16, 5))
E1_TARGETS = (0.05, 0.01)

# E2/E3: baseline batch 32 at rate 0.1; step decay x0.1 after 2/3 of training; warmup 5 epochs.
BASE_BATCH, BASE_LR, DECAY_AT, DECAY, WARMUP_EPOCHS = 32, 0.1, 2 / 3, 0.1, 5


@lru_cache(maxsize=4)
def e1(seeds=SEEDS, targets=E1_TARGETS) -> StepsSweep:
    """Steps to 5% and 1% of the starting excess loss, B = 1 .. 1024, the full rate grid."""
    return steps_to_target(E1_BATCH_SIZES, E1_LEARNING_RATES, targets, seeds)


def schedule(batch: int, rule: str, epochs: int, warmup: bool = False):
    """The learning-rate schedule of one E2/E3 run: the rule's rate with the step decay, and
    optionally Goyal's gradual warmup from the base rate over the first 5 epochs."""
    steps = (N_TRAIN // batch) * epochs
    rate = scaled_learning_rate(BASE_LR, BASE_BATCH, batch, rule)
    sched = PiecewiseConstantDecay([int(steps * DECAY_AT)], [rate, rate * DECAY])
    if warmup:
        sched = GradualWarmup(sched, warmup_steps=(N_TRAIN // batch) * WARMUP_EPOCHS,
                              warmup_learning_rate=BASE_LR)
    return sched


def _train(batch: int, configs, epochs: int, seeds) -> StackedRuns:
    steps = (N_TRAIN // batch) * epochs
    rates = np.stack([learning_rates(schedule(batch, rule, epochs, warm), steps) for rule, warm in configs])
    return train_stacked(teacher_data(0), batch, rates, seeds=seeds, epochs=epochs)


@dataclass(frozen=True)
class E2Result:
    baseline: float                # mean test loss at B = 32, rate 0.1
    test_loss: dict                # (k, rule) -> mean test loss over the seeds
    test_accuracy: dict            # (k, rule) -> mean test accuracy
    baseline_accuracy: float


@lru_cache(maxsize=4)
def e2(ks=(4, 16, 64), seeds=SEEDS, epochs: int = 10) -> E2Result:
    """None, sqrt and linear scaling at k x the base batch; linear warms up when k >= 16."""
    base = _train(BASE_BATCH, [("none", False)], epochs, seeds)
    loss, acc = {}, {}
    for k in ks:
        rules = [("none", False), ("sqrt", False), ("linear", k >= 16)]
        runs = _train(BASE_BATCH * k, rules, epochs, seeds)
        for c, (rule, _) in enumerate(rules):
            loss[k, rule] = float(runs.test_loss[:, c].mean())
            acc[k, rule] = float(runs.test_accuracy[:, c].mean())
    return E2Result(float(base.test_loss.mean()), loss, acc, float(base.test_accuracy.mean()))


@dataclass(frozen=True)
class E3Run:
    batch: int
    warmup: bool
    test_loss: np.ndarray          # (seeds,)
    test_accuracy: np.ndarray
    dead_fraction: np.ndarray      # (seeds,) hidden ReLU units never active on 2,048 inputs
    train_loss: np.ndarray         # (seeds, steps) the loss of each step's batch


@lru_cache(maxsize=4)
def e3(seeds=SEEDS, epochs: int = 30) -> dict:
    """B = 2048 at 6.4 with and without warmup, B = 4096 at 12.8 with warmup, the baseline."""
    out = {}
    for batch, configs in ((BASE_BATCH, [False]), (2048, [False, True]), (4096, [True])):
        runs = _train(batch, [("linear", warm) for warm in configs], epochs, seeds)
        for c, warm in enumerate(configs):
            out[batch, warm] = E3Run(batch, warm, runs.test_loss[:, c], runs.test_accuracy[:, c],
                                     runs.dead_fraction[:, c], runs.train_loss[:, c])
    return out
