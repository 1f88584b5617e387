"""Steps-to-target over batch sizes: the measurement behind Shallue's and McCandlish's curves.

For every batch size, train the whole learning-rate grid at once (``regression.train_grid``),
per seed; keep, per target, the first step any rate reached it and which rate that was. The
medians over seeds are what the plots show and what the fit uses.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.scaling.critical_batch import StepsFit, fit_steps_curve
from sim.scaling.noise_scale import linear_regression_noise_scales
from sim.scaling.regression import StreamingRegression, train_grid


@dataclass
class StepsSweep:
    batch_sizes: np.ndarray        # (batches,)
    learning_rates: np.ndarray     # (rates,) the grid
    targets: np.ndarray            # (targets,) fractions of the starting excess loss
    steps: np.ndarray              # (seeds, targets, batches) first step at or below the target
    best_lr: np.ndarray            # (seeds, targets, batches)
    b_simple: np.ndarray           # (seeds, targets) closed form at the target (largest batch's run)
    b_noise: np.ndarray            # (seeds, targets)
    updates: int                   # rate x steps updates done, all runs together

    @property
    def median_steps(self) -> np.ndarray:
        """(targets, batches) median over seeds."""
        return np.median(self.steps, axis=0)

    @property
    def median_best_lr(self) -> np.ndarray:
        return np.median(self.best_lr, axis=0)

    def fit(self, target_index: int = 0) -> StepsFit:
        return fit_steps_curve(self.batch_sizes, self.median_steps[target_index])


def steps_to_target(batch_sizes, learning_rates, targets=(0.05,), seeds=(0, 1, 2),
                    max_steps: int = 20_000, problem_kwargs=None) -> StepsSweep:
    """The sweep on the reference's streaming regression (one problem per seed)."""
    batch_sizes = np.asarray(batch_sizes, int)
    targets = np.asarray(targets, float)
    shape = (len(seeds), len(targets), len(batch_sizes))
    steps, best = np.empty(shape), np.empty(shape)
    b_simple, b_noise = np.empty(shape[:2]), np.empty(shape[:2])
    updates = 0
    for i, seed in enumerate(seeds):
        problem = StreamingRegression(seed=seed, **(problem_kwargs or {}))
        for j, batch in enumerate(batch_sizes):
            run = train_grid(problem, int(batch), learning_rates, targets, seed=seed, max_steps=max_steps)
            steps[i, :, j], best[i, :, j] = run.steps, run.best_lr
            updates += run.updates
        for k in range(len(targets)):   # the noise scale where the least noisy run met the target
            error = run.error[k]
            b_simple[i, k], b_noise[i, k] = (linear_regression_noise_scales(
                problem.cov, error, problem.noise_std) if np.isfinite(error).all() else (np.nan, np.nan))
    return StepsSweep(batch_sizes, np.asarray(learning_rates, float), targets, steps, best,
                      b_simple, b_noise, updates)
