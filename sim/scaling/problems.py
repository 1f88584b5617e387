"""Small models with exact losses for the staleness experiments (scaling_and_staleness.md §3).

- ``staleness_regression``: lesson 08's ``StreamingRegression`` (fresh samples every step, exact
  population loss) posed by condition number, eigenvalues evenly spaced from 1 to 1/condition.
- ``Quadratic``: f(x) = lambda x^2 / 2 with the exact gradient (no noise), for the stability
  limits of delayed gradient descent.

Both take a stack of parameter rows (one row per learning rate of a sweep) so one simulated run
trains every learning rate on the same event order and the same data draws.
"""
from __future__ import annotations

import numpy as np

from sim.scaling.regression import StreamingRegression


def staleness_regression(dim=16, condition=10.0, noise=1.0, seed=0):
    """E1's regression as the staleness experiments pose it: condition number ``condition``,
    label noise ``noise``, w* drawn from the stream ``(seed, 7)``."""
    return StreamingRegression(dim=dim, eig_max=1.0, eig_min=1.0 / condition, noise_std=noise,
                               seed=(seed, 7))


class Quadratic:
    """f(x) = lam x^2 / 2 in one dimension, exact gradients."""

    def __init__(self, lam=1.0, x0=1.0):
        self.lam, self.x0 = float(lam), float(x0)
        self.lambda_max = self.lam
        self.dim = 1

    def start(self, rows=1):
        return np.full((rows, 1), self.x0)

    def excess(self, w):
        return 0.5 * self.lam * w[..., 0] ** 2

    def batches(self, batch, rng, block=256):
        while True:
            yield None

    def batch_stack(self, batch, rng, count):
        return None

    def gradient(self, w, data):
        return self.lam * w

    def gradients(self, w, data):
        return self.lam * w
