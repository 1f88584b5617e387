"""Exercise 08b: the critical batch size from measured gradient norms (McCandlish's estimator).

The learner writes ``critical_batch_size(b_small, b_big, small_sq_norms, big_sq_norms)``: from
many paired measurements of the squared gradient norm at a small batch (one replica's local
gradient) and a big batch (the all-reduced one), the estimate of B_simple = tr(Sigma) / |G|^2,
which approximates the critical batch size. Each pair gives unbiased estimates of both parts;
average each part over the pairs first, then divide (the ratio of single noisy estimates is
biased). The expected answers are ``sim.scaling.b_simple`` on the same numbers.

The measurements are synthetic but real: squared norms of least-squares gradients at a fixed
point of the reference's regression, drawn with a seed, so every run checks the same numbers.
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from sim.course.exercises.checker import Case, close, run_cases
from sim.i18n import t
from sim.scaling import b_simple
from sim.scaling.regression import StreamingRegression

# (b_small, b_big, draws, distance from w*, seed)
CASES = [
    (8, 64, 400, 1.0, 0),
    (16, 128, 400, 0.5, 1),
    (32, 512, 300, 0.3, 2),
    (4, 256, 500, 0.2, 3),
]


@functools.lru_cache(maxsize=None)
def measurements(b_small: int, b_big: int, draws: int, distance: float, seed: int):
    """(small_sq_norms, big_sq_norms) as tuples: the first ``b_small`` examples of each batch of
    ``b_big`` are one replica's share, the whole batch the all-reduced gradient."""
    problem = StreamingRegression(seed=seed)
    rng = np.random.default_rng([seed, 8])
    w = problem.w_star + distance * rng.standard_normal(problem.dim)
    x, y = problem.draws(rng, draws, b_big)
    per_example = (x @ w - y)[..., None] * x
    small = np.sum(per_example[:, :b_small].mean(axis=1) ** 2, axis=1)
    big = np.sum(per_example.mean(axis=1) ** 2, axis=1)
    return tuple(small.round(6).tolist()), tuple(big.round(6).tolist())


def reference(b_small, b_big, small_sq_norms, big_sq_norms) -> float:
    return b_simple(small_sq_norms, big_sq_norms, b_small, b_big)


# ---------------------------------------------------------------- the usual mistakes

def _mean_of_ratios(b_small, b_big, small, big):
    small, big = np.asarray(small), np.asarray(big)
    g2 = (b_big * big - b_small * small) / (b_big - b_small)
    s = (small - big) / (1 / b_small - 1 / b_big)
    return float(np.mean(s / g2))


def _swapped_sizes(b_small, b_big, small, big):
    small, big = np.mean(small), np.mean(big)
    g2 = (b_small * big - b_big * small) / (b_small - b_big)
    s = (small - big) / (1 / b_big - 1 / b_small)
    return float(s / g2)


def _big_norm_as_true_gradient(b_small, b_big, small, big):
    s = (np.mean(small) - np.mean(big)) / (1 / b_small - 1 / b_big)
    return float(s / np.mean(big))


def _no_batch_weights(b_small, b_big, small, big):
    g2 = (b_big * np.mean(big) - b_small * np.mean(small)) / (b_big - b_small)
    return float((np.mean(small) - np.mean(big)) / g2)


MISTAKES = [
    (_mean_of_ratios, "lesson08.hint_mean_of_ratios"),
    (_swapped_sizes, "lesson08.hint_swapped_sizes"),
    (_big_norm_as_true_gradient, "lesson08.hint_big_is_not_true"),
    (_no_batch_weights, "lesson08.hint_no_batch_weights"),
]


def compare(got, expected) -> bool:
    try:
        return close(float(got), expected, rtol=1e-6)
    except (TypeError, ValueError):
        return False


def diagnose(case: Case, got) -> str | None:
    try:
        value = float(got)
    except (TypeError, ValueError):
        return "lesson08.hint_number"
    for wrong, hint in MISTAKES:
        if close(value, wrong(*case.args), rtol=1e-6):
            return hint
    return None


def cases() -> list[Case]:
    out = []
    for b_small, b_big, draws, distance, seed in CASES:
        small, big = measurements(b_small, b_big, draws, distance, seed)
        out.append(Case(t("lesson08.case_norms", small=b_small, big=b_big, draws=draws),
                        args=(b_small, b_big, list(small), list(big)),
                        expected=reference(b_small, b_big, small, big)))
    return out


def check_critical_batch_size(fn: Callable) -> int:
    """Check ``fn(b_small, b_big, small_sq_norms, big_sq_norms)`` against sim.scaling.b_simple."""
    return run_cases(fn, cases() if callable(fn) else [], compare=compare, diagnose=diagnose)
