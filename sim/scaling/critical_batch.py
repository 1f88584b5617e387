"""Fit McCandlish's steps curve S(B) = S_min (1 + B_crit / B) to measured steps-to-target.

S_min is the fewest steps any batch can need; B_crit the batch where a run pays twice that
(and twice the fewest examples, E_min = S_min B_crit). The model is linear in (S_min,
S_min B_crit), so the fit is one weighted least-squares solve on the relative error
(S_fit - S) / S: every batch size counts the same, whether it needs 5 steps or 5,000.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.i18n import t


@dataclass(frozen=True)
class StepsFit:
    s_min: float
    b_crit: float

    def steps(self, batch) -> np.ndarray:
        """The fitted curve at ``batch`` (a number or an array)."""
        return self.s_min * (1 + self.b_crit / np.asarray(batch, float))

    @property
    def e_min(self) -> float:
        """The fewest examples: what a run at a tiny batch processes."""
        return self.s_min * self.b_crit


def fit_steps_curve(batch_sizes, steps) -> StepsFit:
    """Least squares on relative error; batch sizes that never reached the target (inf, nan) are left out."""
    b = np.asarray(batch_sizes, float)
    s = np.asarray(steps, float)
    ok = np.isfinite(s) & (s > 0)
    if ok.sum() < 2:
        raise ValueError(t("scaling.fit_too_few", n=int(ok.sum())))
    b, s = b[ok], s[ok]
    design = np.stack([1 / s, 1 / (b * s)], axis=1)        # (a + c / B) / S = 1
    (a, c), *_ = np.linalg.lstsq(design, np.ones_like(s), rcond=None)
    return StepsFit(s_min=float(a), b_crit=float(c / a) if a > 0 else float("inf"))


def doubling_ratios(batch_sizes, steps) -> np.ndarray:
    """S(B) / S(2B) for consecutive batch sizes (2 means perfect scaling, 1 no gain)."""
    s = np.asarray(steps, float)
    return s[:-1] / s[1:]
