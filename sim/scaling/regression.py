"""Streaming linear regression trained by SGD, a whole learning-rate grid at once.

The reference's E1 problem (shared/reference/scaling_and_staleness.md §3): inputs x ~ N(0, S)
with S diagonal, eigenvalues evenly spaced from 1 to 0.1 (condition number 10), labels
y = w*.x + noise of standard deviation 1, loss 0.5 (w.x - y)^2, start at w = 0. A fresh sample
every step, so nothing overfits and the population excess loss 0.5 (w - w*)' S (w - w*) is exact.

One call trains every learning rate of a grid side by side: the weights are a (rates, dim) array
and every rate sees the same draws, so a step costs a few NumPy calls whatever the grid's size.
That is the reference's runtime rule; ``bench/scaling_sweep.py`` measures what it buys.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

DIVERGED_FACTOR = 1e6      # a loss this many times its start counts as diverged (reference §3)
CHUNK = 64                 # at most this many steps of input drawn at once (fewer, larger calls)


@dataclass
class StreamingRegression:
    """The problem: ``dim`` inputs, covariance eigenvalues from ``eig_max`` to ``eig_min``."""
    dim: int = 16
    eig_max: float = 1.0
    eig_min: float = 0.1
    noise_std: float = 1.0
    seed: int = 0
    eigenvalues: np.ndarray = field(init=False)
    w_star: np.ndarray = field(init=False)

    def __post_init__(self):
        self.eigenvalues = np.linspace(self.eig_max, self.eig_min, self.dim)
        self.w_star = np.random.default_rng(self.seed).standard_normal(self.dim)

    @property
    def cov(self) -> np.ndarray:
        return np.diag(self.eigenvalues)

    def excess_loss(self, w) -> np.ndarray:
        """0.5 (w - w*)' S (w - w*) along the last axis."""
        e = np.asarray(w) - self.w_star
        return 0.5 * (e * e) @ self.eigenvalues

    def draws(self, rng, steps: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """``steps`` batches: inputs (steps, batch, dim) and labels (steps, batch)."""
        x = rng.standard_normal((steps, batch, self.dim)) * np.sqrt(self.eigenvalues)
        y = x @ self.w_star + self.noise_std * rng.standard_normal((steps, batch))
        return x, y


@dataclass
class RunResult:
    """One seed, one batch size, a grid of rates: the first step each target was reached."""
    steps: np.ndarray          # (targets,) first step at or below each target (inf if never)
    best_lr: np.ndarray        # (targets,) the rate that got there first (nan if none)
    error: np.ndarray          # (targets, dim) that run's w - w* at that step
    updates: int               # steps taken x rates: the work done


def train_grid(problem: StreamingRegression, batch: int, learning_rates, targets=(0.05,),
               seed: int = 0, max_steps: int = 20_000, fixed_steps: int | None = None) -> RunResult:
    """SGD at every rate of ``learning_rates`` on the same draws, until each target is reached.

    ``targets`` are fractions of the starting excess loss. The run stops as soon as some rate
    has reached the last target (later steps cannot change the first crossing), or at
    ``max_steps``. ``fixed_steps`` instead runs exactly that many steps (the benchmark's baseline).
    Rates that diverge (inf/nan or 10^6 x the start) are dropped from the race.
    """
    lrs = np.asarray(learning_rates, float).reshape(-1, 1)
    targets = np.asarray(targets, float)
    rng = np.random.default_rng([seed, batch])
    w = np.zeros((len(lrs), problem.dim))
    start = float(problem.excess_loss(np.zeros(problem.dim)))
    limit = targets * start
    steps = np.full(len(targets), np.inf)
    best = np.full(len(targets), np.nan)
    error = np.full((len(targets), problem.dim), np.nan)
    alive = np.ones(len(lrs), bool)
    total = fixed_steps if fixed_steps is not None else max_steps
    done, chunk = 0, 1
    with np.errstate(over="ignore", invalid="ignore"):
        while done < total:
            # chunks of 1, 2, 4 ... CHUNK steps: a run that ends after a few steps draws little
            xs, ys = problem.draws(rng, min(chunk, total - done), batch)
            chunk = min(2 * chunk, CHUNK)
            for x, y in zip(xs, ys):
                residual = w @ x.T - y                        # (rates, batch)
                w -= lrs * (residual @ x) / batch
                done += 1
                loss = problem.excess_loss(w)
                bad = ~np.isfinite(loss) | (loss > DIVERGED_FACTOR * start)
                if bad.any():
                    alive &= ~bad
                    w[bad] = 0.0
                if fixed_steps is not None:
                    continue
                for k in np.flatnonzero(np.isinf(steps)):
                    hit = alive & (loss <= limit[k])
                    if hit.any():
                        i = int(np.flatnonzero(hit)[np.argmin(loss[hit])])
                        steps[k], best[k], error[k] = done, lrs[i, 0], w[i] - problem.w_star
                if np.isfinite(steps[-1]):
                    return RunResult(steps, best, error, done * len(lrs))
    return RunResult(steps, best, error, done * len(lrs))


def loss_curve(problem: StreamingRegression, batch: int, learning_rate: float, steps: int,
               seed: int = 0) -> np.ndarray:
    """Excess loss after each of ``steps`` SGD steps at one rate (index 0: the start)."""
    rng = np.random.default_rng([seed, batch])
    w = np.zeros(problem.dim)
    out = [float(problem.excess_loss(w))]
    xs, ys = problem.draws(rng, steps, batch)
    with np.errstate(over="ignore", invalid="ignore"):
        for x, y in zip(xs, ys):
            w = w - learning_rate * ((x @ w - y) @ x) / batch
            out.append(float(problem.excess_loss(w)))
    return np.array(out)
