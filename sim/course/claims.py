"""The words a lesson's claims are checked with: what "falls", "rises", "about" and "below" mean.

A lesson's narrative marks a sentence that states a number or a direction with a claim, an HTML
comment in its markdown source (``<!-- claim warmup_start: rises(first_steps, 5) -->``, see
docs/claims.md). While the lesson is built, each claim is evaluated in the lesson's own kernel,
at the point where the learner reads it, with the functions below; tools/claims.py records the
verdicts and tests/test_claims.py fails on a false one. Each function returns a ``Check``: its
truth and one line saying what the numbers were, so a failure shows why without a re-run.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Check:
    """A claim's verdict and the figures it was judged on."""
    ok: bool
    detail: str

    def __bool__(self) -> bool:
        return self.ok

    def __and__(self, other: "Check") -> "Check":
        return Check(self.ok and other.ok, f"{self.detail}; {other.detail}")


def _series(values) -> np.ndarray:
    return np.asarray(values, dtype=float).ravel()


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def falls(values, steps: int | None = None) -> Check:
    """Every step of the first ``steps`` (all by default) is lower than the one before."""
    v = _series(values)[: None if steps is None else steps + 1]
    rises_at = [i for i in range(1, len(v)) if v[i] >= v[i - 1]]
    shown = " → ".join(_fmt(x) for x in v[:8]) + (" …" if len(v) > 8 else "")
    if rises_at:
        return Check(False, f"does not fall at step {rises_at[0]}: {shown}")
    return Check(True, f"falls at every step: {shown}")


def rises(values, steps: int | None = None) -> Check:
    """Every step of the first ``steps`` (all by default) is higher than the one before."""
    v = _series(values)[: None if steps is None else steps + 1]
    check = falls(-v)
    shown = " → ".join(_fmt(x) for x in v[:8]) + (" …" if len(v) > 8 else "")
    return Check(check.ok, (f"rises at every step: {shown}" if check.ok
                            else f"does not rise at every step: {shown}"))


def ends_lower(values) -> Check:
    """The last value is below the first (a curve that falls overall, whatever it does between)."""
    v = _series(values)
    return Check(bool(v[-1] < v[0]), f"first {_fmt(v[0])}, last {_fmt(v[-1])}")


def peak_over_start(values, steps: int | None = None) -> float:
    """The highest value of the first ``steps`` divided by the first value (a spike's size)."""
    v = _series(values)[: None if steps is None else steps + 1]
    return float(v.max() / v[0])


def never_above_start(values, steps: int | None = None) -> Check:
    """No value of the first ``steps`` exceeds the first one ("falls from the first step", loosely:
    a noisy curve may wiggle, but it never climbs above where it started)."""
    v = _series(values)[: None if steps is None else steps + 1]
    worst = int(np.argmax(v))
    return Check(bool(v[worst] <= v[0]), f"peaks at {v[worst] / v[0]:.3g} × its start ({_fmt(v[0])}) "
                                          f"at step {worst}")


def about(value, expected: float, rel: float | None = None, abs: float | None = None) -> Check:
    """``value`` is ``expected`` to the precision the text quotes it (``rel`` or ``abs``)."""
    value = float(value)
    tol = abs if abs is not None else (rel if rel is not None else 0.05) * math.fabs(expected)
    return Check(math.fabs(value - expected) <= tol,
                 f"{_fmt(value)} against the text's {_fmt(expected)} (± {_fmt(tol)})")


def rounds_to(value, expected: float, digits: int = 0) -> Check:
    """``value`` printed with ``digits`` decimals reads ``expected``, as the text quotes it."""
    shown = round(float(value), digits)
    return Check(shown == round(expected, digits), f"{float(value):.{digits + 3}f} reads {shown}, "
                                                   f"the text says {expected}")


def below(a, b, by: float = 0.0) -> Check:
    """``a < b``, and by more than the fraction ``by`` of ``b`` (``below(x, y, by=0.1)``: 10 % lower)."""
    a, b = float(a), float(b)
    return Check(a < b * (1 - by) if b >= 0 else a < b - by * math.fabs(b),
                 f"{_fmt(a)} against {_fmt(b)}" + (f" (needs {by:.0%} lower)" if by else ""))


def above(a, b, by: float = 0.0) -> Check:
    """``a > b``, and by more than the fraction ``by`` of ``b``."""
    a, b = float(a), float(b)
    return Check(a > b * (1 + by) if b >= 0 else a > b + by * math.fabs(b),
                 f"{_fmt(a)} against {_fmt(b)}" + (f" (needs {by:.0%} higher)" if by else ""))


def between(value, low: float, high: float) -> Check:
    """``low <= value <= high``: a range the text quotes ("15 to 22 points")."""
    value = float(value)
    return Check(low <= value <= high, f"{_fmt(value)} in [{_fmt(low)}, {_fmt(high)}]")


def closer(a, b, target) -> Check:
    """``a`` is nearer ``target`` than ``b`` is ("comes closest to the baseline")."""
    a, b, target = float(a), float(b), float(target)
    return Check(math.fabs(a - target) < math.fabs(b - target),
                 f"{_fmt(a)} and {_fmt(b)} against {_fmt(target)}")


def holds(condition, detail: str = "") -> Check:
    """Any other Boolean fact about the lesson's values (say what it is in ``detail``)."""
    return Check(bool(condition), detail or repr(bool(condition)))


WORDS = {f.__name__: f for f in (falls, rises, ends_lower, peak_over_start, never_above_start, about,
                                 rounds_to, below, above, between, closer, holds)}


def judge(claims: list[tuple[str, str]], namespace: dict) -> list[dict]:
    """Evaluate each ``(id, expression)`` in the lesson's namespace: one record per claim."""
    scope = dict(namespace)
    scope.update(WORDS)
    scope.setdefault("np", np)
    records = []
    for claim_id, expression in claims:
        try:
            verdict = eval(expression, scope)  # noqa: S307 - the lesson's own source, at build time
        except Exception as error:  # a claim that cannot be evaluated is a false claim
            records.append({"id": claim_id, "expression": expression, "ok": False,
                            "detail": f"{type(error).__name__}: {error}"})
            continue
        if not isinstance(verdict, Check):
            verdict = Check(bool(verdict), repr(verdict))
        records.append({"id": claim_id, "expression": expression, "ok": verdict.ok,
                        "detail": verdict.detail})
    return records
