"""The gradient noise scale and the critical batch size (McCandlish et al. 2018, arXiv 1812.06162).

For a batch of B examples, E|G_B|^2 = |G|^2 + tr(Sigma) / B (G the true gradient, Sigma the
covariance of one example's gradient). Two batch sizes at the same parameters give unbiased
estimates of both terms (their Appendix A.1):

    |G|^2     ~ (B_big |G_big|^2 - B_small |G_small|^2) / (B_big - B_small)
    tr(Sigma) ~ (|G_small|^2 - |G_big|^2) / (1 / B_small - 1 / B_big)

and the simple noise scale B_simple = tr(Sigma) / |G|^2. The ratio of two noisy estimates is
biased and unstable, so average the numerator and the denominator separately over many draws
first (``b_simple``), or keep running averages (``NoiseScaleMeter``). In synchronous data
parallelism the two sizes come for free: a replica's local gradient (B_small = the per-replica
batch) and the all-reduced one (B_big = the global batch).

McCandlish's model: B_crit ~ B_noise, the batch beyond which doubling it no longer halves the
steps; B_simple equals B_noise when the Hessian is a multiple of the identity, and over-estimates
it on an ill-conditioned problem. ``linear_regression_noise_scales`` gives both in closed form
for least squares with Gaussian inputs (the test oracle).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.i18n import t


def _sizes(b_small, b_big) -> tuple[float, float]:
    b_small, b_big = float(b_small), float(b_big)
    if not 0 < b_small < b_big:
        raise ValueError(t("scaling.noise_sizes", small=b_small, big=b_big))
    return b_small, b_big


def true_gradient_sq(g_small_sq, g_big_sq, b_small, b_big) -> np.ndarray:
    """Unbiased estimate of |G|^2 from squared gradient norms at two batch sizes."""
    b_small, b_big = _sizes(b_small, b_big)
    return (b_big * np.asarray(g_big_sq, float) - b_small * np.asarray(g_small_sq, float)) / (b_big - b_small)


def trace_sigma(g_small_sq, g_big_sq, b_small, b_big) -> np.ndarray:
    """Unbiased estimate of tr(Sigma), the summed per-example gradient variance."""
    b_small, b_big = _sizes(b_small, b_big)
    return (np.asarray(g_small_sq, float) - np.asarray(g_big_sq, float)) / (1 / b_small - 1 / b_big)


def b_simple(g_small_sq, g_big_sq, b_small, b_big) -> float:
    """B_simple from many measurements: the ratio of the two averaged estimates.

    Both estimates are linear in the squared norms, so averaging them over pairs equals applying
    them to the mean squared norms; the two lists may therefore differ in length (every replica's
    local norm, one all-reduced norm per step).
    """
    small, big = float(np.mean(g_small_sq)), float(np.mean(g_big_sq))
    noise = float(trace_sigma(small, big, b_small, b_big))
    signal = float(true_gradient_sq(small, big, b_small, b_big))
    if not signal > 0:
        raise ValueError(t("scaling.noise_no_signal", signal=signal))
    return noise / signal


@dataclass
class NoiseScaleMeter:
    """Running B_simple from one pair of squared norms per step (exponential moving averages)."""
    b_small: float
    b_big: float
    decay: float = 0.99
    _noise: float = 0.0
    _signal: float = 0.0
    _weight: float = 0.0

    def update(self, g_small_sq, g_big_sq) -> None:
        noise = float(trace_sigma(g_small_sq, g_big_sq, self.b_small, self.b_big))
        signal = float(true_gradient_sq(g_small_sq, g_big_sq, self.b_small, self.b_big))
        d = self.decay
        self._noise = d * self._noise + (1 - d) * noise
        self._signal = d * self._signal + (1 - d) * signal
        self._weight = d * self._weight + (1 - d)

    @property
    def value(self) -> float:
        """The current B_simple (nan until the averaged |G|^2 is positive)."""
        return self._noise / self._signal if self._signal > 0 else float("nan")


def linear_regression_noise_scales(cov, error, noise_std) -> tuple[float, float]:
    """(B_simple, B_noise) at error ``w - w*`` for loss 0.5 (w.x - y)^2, x ~ N(0, cov).

    With S = cov and e = error: |G|^2 = e'S^2e, tr(Sigma) = e'S^2e + tr(S)(e'Se + sigma^2), so
    B_simple = 1 + tr(S)(e'Se + sigma^2)/(e'S^2e) and, with H = S,
    B_noise = tr(H Sigma)/(G'HG) = 1 + tr(S^2)(e'Se + sigma^2)/(e'S^3e).
    """
    s = np.asarray(cov, float)
    e = np.asarray(error, float)
    se = s @ e
    quad = float(e @ se) + float(noise_std) ** 2
    b_s = 1 + np.trace(s) * quad / float(se @ se)
    b_n = 1 + np.trace(s @ s) * quad / float(se @ s @ se)
    return float(b_s), float(b_n)
