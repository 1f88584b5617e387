"""The plan: for every candidate, steps to target x time per step = time to target, and its cost.

    synchronous:  time = steps(B) x step time                 B = workers x batch per device
    asynchronous: time = updates x step time / N              N workers, each batch b
                  updates = N x steps(N b) x slowdown          (sim.plan.asynchrony, derived)
    cost = time (hours) x devices x price per device-hour

``steps`` come from a recipe (``sim.plan.recipes``: published convergence) or a ``StepsCurve``
(measured here, or your own). Each row carries the recipe's ``status`` at its batch: published,
interpolated, extrapolated, or not reached (past the largest batch known to reach the target;
such a row never reaches it and ranks last). With ``epochs`` (a fixed budget) every row trains
that many epochs and says whether that reaches the target. Every column carries where its number
comes from (``sources``): a plan is only as good as its weakest column.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.i18n import t
from .candidates import Candidate
from .step_time import StepTime, model_step


@dataclass(frozen=True)
class PlanRow:
    candidate: Candidate
    learning_rate: float       # per update (async: the rate the derivation allows)
    warmup_steps: int
    steps: float               # updates to the target (async: all workers' updates together)
    status: str                # the steps' status at this batch (sim.plan.recipes.STATUSES)
    step: StepTime
    seconds: float             # time to target (inf: not reached)
    cost: float                # price x devices x hours
    epochs: float | None = None
    asynchrony: object = None  # sim.plan.asynchrony.AsyncCost for async rows
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
    curve: object              # the Recipe or StepsCurve the steps came from
    rank_by: str = "time"
    epochs: float | None = None

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


def _updates(c: Candidate, source):
    """(updates to target, status, per-update rate, AsyncCost or None)."""
    if c.synchronous:
        batch = c.update_batch
        return source.steps(batch), source.status(batch), source.learning_rate(batch), None
    if not getattr(source, "async_supported", True):
        return math.inf, "not reached", source.learning_rate(c.batch_per_device), None
    from .asynchrony import async_cost
    cost = async_cost(source, c.workers, c.batch_per_device)
    return cost.updates, cost.status, cost.learning_rate, cost


def plan_row(c: Candidate, source, step: StepTime, price, epochs: float | None = None) -> PlanRow:
    """One candidate's row: the arithmetic of the module docstring, nothing else."""
    n = c.workers
    updates, status, lr, detail = _updates(c, source)
    per_update = c.update_batch
    examples = getattr(source, "examples", None)
    if epochs is not None and examples:
        budget = math.ceil(epochs * examples / per_update)      # updates a budget of epochs buys
        status = status if updates <= budget else "not reached"
        updates = budget if updates <= budget else math.inf
    per_second = (n / step.seconds) if not c.synchronous else 1 / step.seconds
    seconds = updates / per_second if math.isfinite(updates) else math.inf
    cost = seconds / 3600 * c.devices * price_of(price, c.machine)
    run_epochs = updates * per_update / examples if examples and math.isfinite(updates) else None
    sources = {"steps": source.source, "step": step.source, "time": "derived", "cost": "derived"}
    warmup = source.warmup_steps(c.update_batch if c.synchronous else n * c.batch_per_device)
    return PlanRow(c, lr, warmup, updates, status, step, seconds, cost, run_epochs, detail, sources)


def rank(rows, by: str = "time") -> list:
    if by not in ("time", "cost"):
        raise ValueError(t("plan.bad_rank", value=by))
    key = (lambda r: (r.seconds, r.cost)) if by == "time" else (lambda r: (r.cost, r.seconds))
    return sorted(rows, key=key)


def check_model(model: str, source) -> None:
    """A recipe's epochs are its model's: planning another model on them would be invented."""
    wanted = getattr(source, "model", None)
    if wanted is not None:
        from sim.workloads import workload
        if workload(model).name != workload(wanted).name:
            raise ValueError(t("plan.recipe_model", recipe=source.name, wanted=wanted, model=model))


def make_plan(workload, source, candidates, price, rank_by: str = "time",
              epochs: float | None = None, stragglers=None) -> Plan:
    """``workload``: a ``sim.workloads`` model name (model mode) or a function candidate -> StepTime;
    ``source``: a ``Recipe`` (or its name) or a ``StepsCurve``; ``epochs``: a fixed budget;
    ``stragglers``: a ``sim.des.ComputeTime`` of the workers' compute (None: identical GPUs)."""
    if isinstance(source, str):
        from .recipes import recipe
        source = recipe(source)
    if isinstance(workload, str):
        check_model(workload, source)
    step_of = (lambda c: model_step(workload, c, stragglers=stragglers)) if isinstance(workload, str) else workload
    rows = [plan_row(c, source, step_of(c), price, epochs) for c in candidates]
    return Plan(rank(rows, rank_by), source, rank_by, epochs)
