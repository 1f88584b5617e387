"""Exercise 07b: the largest learning rate at which asynchronous training stays stable.

Setting (scaling_and_staleness.md §1.3, E5a): N workers whose steps all take the same time, so
after the first round every update is exactly N - 1 updates stale; the model is the quadratic
f(x) = x^2 / 2 (lambda = 1) with exact gradients. Delayed gradient descent with delay tau is
stable iff ``lr < 2 sin(pi / (2 (2 tau + 1)))`` (Levin and May, 1976). With the staleness-aware
rule (learning rate divided by 1 + tau = N) the limit is N times larger.

The learner writes ``largest_stable_lr(workers, staleness_aware)``, typically by bisection over
``is_stable`` (which runs the simulator); the checker compares with the closed form (3%).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from sim.course.exercises.checker import Case, run_cases
from sim.i18n import t


def is_stable(workers: int, lr: float, staleness_aware: bool = False) -> bool:
    """Run asynchronous training on the simulator and say whether it converges."""
    from sim.des import ComputeTime
    from sim.scaling.problems import Quadratic
    from sim.scaling.staleness_regimes import run_async
    run = run_async(Quadratic(), int(workers), ComputeTime(fixed=1.0), updates=200 * int(workers),
                    lr=[float(lr)], rule="1+tau" if staleness_aware else None)
    loss = run.loss[:, 0]
    n = len(loss)
    early, late = loss[n // 10:n // 5].max(), loss[-n // 10:].max()
    return bool(not run.diverged[0] and (late < early or late < 1e-30))


def reference(workers: int, staleness_aware: bool) -> float:
    """The closed form: 2 sin(pi / (4N - 2)), times N with the staleness-aware rule."""
    limit = 2 * math.sin(math.pi / (4 * workers - 2))
    return workers * limit if staleness_aware else limit


CASES = [(1, False), (2, False), (4, False), (8, False), (2, True), (4, True), (8, True)]


def cases() -> list[Case]:
    return [Case(t("lesson07.ex_lr_case", workers=n,
                   rule=t("lesson07.rule_aware" if aware else "lesson07.rule_plain")),
                 (n, aware), {}, reference(n, aware)) for n, aware in CASES]


def _compare(got, expected):
    try:
        return abs(float(got) - expected) <= 0.03 * expected
    except (TypeError, ValueError):
        return False


def diagnose(case: Case, got) -> str | None:
    try:
        got = float(got)
    except (TypeError, ValueError):
        return None
    n, aware = case.args
    if aware and np.isclose(got, reference(n, False), rtol=0.05):
        return "lesson07.ex_lr_hint_rule"
    if not aware and n > 1 and np.isclose(got, 2 / (2 * n - 1), rtol=0.05):
        return "lesson07.ex_lr_hint_linear"
    if got > case.expected:
        return "lesson07.ex_lr_hint_high"
    return "lesson07.ex_lr_hint_low"


def check_largest_stable_lr(fn: Callable) -> int:
    """Check ``fn(workers, staleness_aware) -> learning rate`` against the closed form."""
    return run_cases(fn, cases(), compare=_compare, diagnose=diagnose)
