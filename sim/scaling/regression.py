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
from itertools import islice

import numpy as np

DIVERGED_FACTOR = 1e6      # a loss this many times its start counts as diverged (reference §3)
CHUNK = 64                 # at most this many steps of input drawn at once (fewer, larger calls)


@dataclass
class StreamingRegression:
    """The problem: ``dim`` inputs, covariance eigenvalues from ``eig_max`` to ``eig_min``.

    One class serves lesson 08's batch-size sweeps (``draws``: the samples themselves, a grid of
    rates trained on them) and lesson 07's staleness experiments (``batches``: each minibatch's
    sufficient statistics, for ``sim.scaling.staleness_regimes``). ``seed`` may be a sequence:
    the staleness experiments draw w* from ``(seed, 7)``."""
    dim: int = 16
    eig_max: float = 1.0
    eig_min: float = 0.1
    noise_std: float = 1.0
    seed: int | tuple = 0
    eigenvalues: np.ndarray = field(init=False)
    w_star: np.ndarray = field(init=False)

    def __post_init__(self):
        self.dim = int(self.dim)
        self.eigenvalues = np.linspace(self.eig_max, self.eig_min, self.dim)
        self.w_star = np.random.default_rng(self.seed).standard_normal(self.dim)

    @property
    def cov(self) -> np.ndarray:
        return np.diag(self.eigenvalues)

    @property
    def lambda_max(self) -> float:
        return float(self.eigenvalues.max())

    @property
    def noise(self) -> float:
        return self.noise_std

    def start(self, rows=1):
        """``rows`` copies of the starting point w = 0."""
        return np.zeros((rows, self.dim))

    def excess_loss(self, w) -> np.ndarray:
        """0.5 (w - w*)' S (w - w*) along the last axis."""
        e = np.asarray(w) - self.w_star
        return 0.5 * (e * e) @ self.eigenvalues

    excess = excess_loss

    def draws(self, rng, steps: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """``steps`` batches: inputs (steps, batch, dim) and labels (steps, batch)."""
        x = rng.standard_normal((steps, batch, self.dim)) * np.sqrt(self.eigenvalues)
        y = x @ self.w_star + self.noise_std * rng.standard_normal((steps, batch))
        return x, y

    def batches(self, batch, rng, block=256):
        """Endless fresh minibatches, drawn ``block`` at a time, each given by what its gradient
        needs: ``(X'X / B, X'y / B)`` (the gradient at w is then ``w X'X/B - X'y/B``).

        Only these sufficient statistics matter, so they are drawn directly rather than from B
        samples: X'X is Wishart(B, diag) by Bartlett's decomposition, X'X = M M' with M lower
        triangular (chi-square diagonal, normal below it, rows scaled by sqrt(eigenvalues));
        given X, the noise term X'e is N(0, noise^2 X'X) = noise M z. Same joint law as drawing
        the B samples, with 152 draws per batch instead of 544 (the 16-feature default).
        Batches smaller than ``dim`` (a singular X'X) draw the samples."""
        for xtx, xty in self._blocks(batch, rng, block):
            yield from zip(xtx, xty)

    def batch_stack(self, batch, rng, count, block=256):
        """The first ``count`` minibatches of ``batches`` (same draws) as two stacked arrays,
        for ``gradients``: ``(count, dim, dim)`` and ``(count, dim)``."""
        parts = list(islice(self._blocks(batch, rng, block), -(-count // block)))
        if not parts:
            return np.zeros((0, self.dim, self.dim)), np.zeros((0, self.dim))
        return (np.concatenate([p[0] for p in parts])[:count],
                np.concatenate([p[1] for p in parts])[:count])

    def _blocks(self, batch, rng, block):
        """Endless ``block``-sized arrays of minibatch statistics (``batches`` explains them)."""
        if batch < self.dim:
            yield from self._sampled_blocks(batch, rng, block)
            return
        d, scale = self.dim, np.sqrt(self.eigenvalues)
        below, diagonal = np.tril_indices(d, -1), np.arange(d)
        chi2_dof = batch - diagonal                 # Bartlett: n - i + 1 for i = 1..d
        while True:
            m = np.zeros((block, d, d))
            m[:, below[0], below[1]] = rng.standard_normal((block, len(below[0])))
            m[:, diagonal, diagonal] = np.sqrt(rng.chisquare(chi2_dof, size=(block, d)))
            m *= scale[:, None]
            xtx = m @ m.transpose(0, 2, 1) / batch
            v = self.w_star @ m + self.noise_std * rng.standard_normal((block, d))  # M'w* + noise z
            xty = np.einsum("kij,kj->ki", m, v) / batch
            yield xtx, xty

    def _sampled_blocks(self, batch, rng, block):
        while True:
            x = rng.standard_normal((block, batch, self.dim)) * np.sqrt(self.eigenvalues)
            y = x @ self.w_star + self.noise_std * rng.standard_normal((block, batch))
            xtx = np.matmul(x.transpose(0, 2, 1), x) / batch
            xty = np.einsum("kbd,kb->kd", x, y) / batch
            yield xtx, xty

    def gradient(self, w, data):
        """Minibatch gradient of the squared loss at every row of ``w`` (same batch for all)."""
        xtx, xty = data
        return w @ xtx - xty

    def gradients(self, w, data):
        """``gradient`` for a stack: ``w[k]`` on minibatch ``k`` of a ``batch_stack``."""
        xtx, xty = data
        return np.matmul(w, xtx) - xty[:, None, :]


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
