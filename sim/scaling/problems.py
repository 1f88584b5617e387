"""Small models with exact losses for the staleness experiments (scaling_and_staleness.md §3).

- ``StreamingRegression``: linear regression on fresh samples every step (no overfitting, the
  population loss is exact): x ~ N(0, diag(eigenvalues)), y = x.w* + noise. Eigenvalues evenly
  spaced from 1 to 1/condition; the excess loss is ``(w - w*)' diag (w - w*) / 2``.
- ``Quadratic``: f(x) = lambda x^2 / 2 with the exact gradient (no noise), for the stability
  limits of delayed gradient descent.

Both take a stack of parameter rows (one row per learning rate of a sweep) so one simulated run
trains every learning rate on the same event order and the same data draws.
"""
from __future__ import annotations

import numpy as np


class StreamingRegression:
    """E1's regression: ``dim`` features, condition number ``condition``, label noise ``noise``."""

    def __init__(self, dim=16, condition=10.0, noise=1.0, seed=0):
        self.dim = int(dim)
        self.eigenvalues = np.linspace(1.0, 1.0 / condition, self.dim)
        self._scale = np.sqrt(self.eigenvalues)
        self.noise = float(noise)
        self.w_star = np.random.default_rng([seed, 7]).standard_normal(self.dim)
        self.lambda_max = float(self.eigenvalues.max())

    def start(self, rows=1):
        return np.zeros((rows, self.dim))

    def excess(self, w):
        """Population excess loss of every row of ``w``."""
        d = w - self.w_star
        return 0.5 * (d * d) @ self.eigenvalues

    def batches(self, batch, rng, block=256):
        """Endless fresh minibatches, drawn ``block`` at a time, each given by what its gradient
        needs: ``(X'X / B, X'y / B)`` (the gradient at w is then ``w X'X/B - X'y/B``).

        Only these sufficient statistics matter, so they are drawn directly rather than from B
        samples: X'X is Wishart(B, diag) by Bartlett's decomposition, X'X = M M' with M lower
        triangular (chi-square diagonal, normal below it, rows scaled by sqrt(eigenvalues));
        given X, the noise term X'e is N(0, noise^2 X'X) = noise M z. Same joint law as drawing
        the B samples, with 152 draws per batch instead of 544 (the 16-feature default).
        Batches smaller than ``dim`` (a singular X'X) draw the samples."""
        if batch < self.dim:
            yield from self._sampled_batches(batch, rng, block)
            return
        d = self.dim
        below, diagonal = np.tril_indices(d, -1), np.arange(d)
        chi2_dof = batch - diagonal                 # Bartlett: n - i + 1 for i = 1..d
        while True:
            m = np.zeros((block, d, d))
            m[:, below[0], below[1]] = rng.standard_normal((block, len(below[0])))
            m[:, diagonal, diagonal] = np.sqrt(rng.chisquare(chi2_dof, size=(block, d)))
            m *= self._scale[:, None]
            xtx = m @ m.transpose(0, 2, 1) / batch
            v = self.w_star @ m + self.noise * rng.standard_normal((block, d))    # M'w* + noise z
            xty = np.einsum("kij,kj->ki", m, v) / batch
            yield from zip(xtx, xty)

    def _sampled_batches(self, batch, rng, block):
        while True:
            x = rng.standard_normal((block, batch, self.dim)) * self._scale
            y = x @ self.w_star + self.noise * rng.standard_normal((block, batch))
            xtx = np.matmul(x.transpose(0, 2, 1), x) / batch
            xty = np.einsum("kbd,kb->kd", x, y) / batch
            yield from zip(xtx, xty)

    def gradient(self, w, data):
        """Minibatch gradient of the squared loss at every row of ``w`` (same batch for all)."""
        xtx, xty = data
        return w @ xtx - xty


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

    def gradient(self, w, data):
        return self.lam * w
