"""The plan: for every candidate, steps to target x time per step = time to target, and its cost.

    synchronous:  time = steps(B) x step time                    B = devices x batch per device
    asynchronous: time = updates x step time / N                  N workers, each batch b
                  updates = N x steps(N b)  (StepsCurve.async_updates: the staleness penalty)
    cost = time (hours) x devices x price per device-hour

Rows are ranked by time to target (or cost); a candidate that never reaches the target (its
learning rate diverges) ranks last. ``within(budget, deadline)`` keeps the rows that fit both.
Every column carries where its number comes from (``SOURCES``): a plan is only as good as its
weakest column, and the reader should see which that is.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.i18n import t
from .candidates import Candidate
from .step_time import StepTime, model_step
from .steps_curve import StepsCurve


@dataclass(frozen=True)
class PlanRow:
    candidate: Candidate
    learning_rate: float
    warmup_steps: int
    steps: float               # updates to the target (async: all workers' updates together)
    staleness_steps: float     # async: updates lost to stale gradients (0 when synchronous)
    step: StepTime
    seconds: float             # time to target
    cost: float                # price x devices x hours
    sources: dict = field(default_factory=dict, compare=False)

    @property
    def reaches(self) -> bool:
        return math.isfinite(self.seconds)

    @property
    def hours(self) -> float:
        return self.seconds / 3600


@dataclass
class Plan:
    rows: list                 # ranked, best first
    curve: StepsCurve
    rank_by: str = "time"

    @property
    def fastest(self) -> PlanRow:
        return min(self.rows, key=lambda r: (r.seconds, r.cost))

    @property
    def cheapest(self) -> PlanRow:
        return min(self.rows, key=lambda r: (r.cost, r.seconds))

    def within(self, budget: float | None = None, deadline_hours: float | None = None) -> list:
        """The rows (in rank order) that cost at most ``budget`` and finish within the deadline."""
        return [r for r in self.rows if r.reaches
                and (budget is None or r.cost <= budget)
                and (deadline_hours is None or r.hours <= deadline_hours)]


def price_of(price, machine: str) -> float:
    """A price per device-hour: one number, or a dict by node preset."""
    value = price.get(machine) if isinstance(price, dict) else price
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or value < 0:
        raise ValueError(t("plan.bad_price", machine=machine, value=value))
    return float(value)


def plan_row(c: Candidate, curve: StepsCurve, step: StepTime, price) -> PlanRow:
    """One candidate's row: the arithmetic of the module docstring, nothing else."""
    n, b = c.devices, c.batch_per_device
    if c.synchronous:
        batch = n * b
        steps, stale = curve.steps(batch), 0.0
        seconds = steps * step.seconds
    else:
        batch = b
        steps, stale = curve.async_updates(n, b)
        seconds = steps * step.seconds / n
    cost = seconds / 3600 * n * price_of(price, c.machine)
    sources = {"steps": curve.source, "step": step.source, "time": "derived", "cost": "derived",
               "staleness": "derived"}
    return PlanRow(c, curve.learning_rate(batch), curve.warmup_steps(batch), steps, stale, step,
                   seconds, cost, sources)


def rank(rows, by: str = "time") -> list:
    if by not in ("time", "cost"):
        raise ValueError(t("plan.bad_rank", value=by))
    key = (lambda r: (r.seconds, r.cost)) if by == "time" else (lambda r: (r.cost, r.seconds))
    return sorted(rows, key=key)


def make_plan(workload, curve: StepsCurve, candidates, price, rank_by: str = "time") -> Plan:
    """``workload``: a ``sim.workloads`` model name (model mode) or a function candidate -> StepTime."""
    step_of = (lambda c: model_step(workload, c)) if isinstance(workload, str) else workload
    rows = [plan_row(c, curve, step_of(c), price) for c in candidates]
    return Plan(rank(rows, rank_by), curve, rank_by)
