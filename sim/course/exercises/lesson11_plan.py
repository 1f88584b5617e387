"""Exercise 11: choose the plan for a stated budget and deadline, with a recipe's published steps.

The learner writes ``choose_plan(options, epochs_at, examples, price, budget, deadline_hours)``:
``options`` maps a name to ``(devices, batch_per_device, step_seconds)`` (the step time simulated
by ``sim.plan`` for ResNet-50 on that cluster); ``epochs_at(B)`` is a recipe's published epochs to
the target at the global batch ``B = devices x batch_per_device`` (``inf`` past the largest batch
the recipe is known to reach it at, ``sim.plan.recipes``); steps = ceil(epochs x examples / B);
time is steps x step time; cost is hours x devices x price per device-hour. The answer is the name
of the fastest option that reaches the target, costs at most ``budget`` and ends within
``deadline_hours``, or ``None``.
"""
from __future__ import annotations

import functools
import math

from sim.course.exercises.checker import Case, run_cases
from sim.i18n import t

PRICE = 2.0      # per GPU-hour (a made-up classroom price)
EXAMPLES = 1_281_167
# name -> (machine, nodes, network, strategy, batch per GPU)
CLUSTERS = {
    "1x dgx1-p100": ("dgx1-p100", 1, None, "mirrored-nccl", 64),
    "4x dgx1-p100, 10 GbE": ("dgx1-p100", 4, "10gbe", "mirrored-nccl", 64),
    "16x dgx1-p100, EDR": ("dgx1-p100", 16, "edr-ib", "mirrored-nccl", 64),
    "32x dgx1-p100, EDR": ("dgx1-p100", 32, "edr-ib", "mirrored-nccl", 32),
    "32x dgx1-p100, EDR, 64/GPU": ("dgx1-p100", 32, "edr-ib", "mirrored-nccl", 64),
    "64x dgx1-p100, EDR, 64/GPU": ("dgx1-p100", 64, "edr-ib", "mirrored-nccl", 64),
}
# (budget, deadline in hours, recipe)
SITUATIONS = [(1000.0, 24.0, "goyal-sgd"), (1000.0, 24.0, "mlperf-lars"), (150.0, 0.4, "mlperf-lars"),
              (110.0, 24.0, "mlperf-lars"), (110.0, 4.0, "mlperf-lars"), (240.0, 24.0, "goyal-sgd")]


@functools.lru_cache(maxsize=None)
def options() -> dict:
    """name -> (devices, batch_per_device, step_seconds), the step simulated by sim.plan."""
    from sim.plan import Candidate, model_step
    out = {}
    for name, (machine, nodes, network, strategy, batch) in CLUSTERS.items():
        c = Candidate(machine, nodes, network if nodes > 1 else None, 8, strategy, batch)
        out[name] = (8 * nodes, batch, round(model_step("resnet50", c).seconds, 4))
    return out


def epochs_at(recipe: str):
    from sim.plan.recipes import recipe as named
    return named(recipe).epochs


def hours_and_cost(option: tuple, epochs_of, examples: int, price: float) -> tuple:
    devices, batch, step = option
    epochs = epochs_of(devices * batch)
    if not math.isfinite(epochs):
        return math.inf, math.inf
    hours = math.ceil(epochs * examples / (devices * batch)) * step / 3600
    return hours, hours * devices * price


def solution(options, epochs_of, examples, price, budget, deadline_hours):
    best = None
    for name, option in options.items():
        hours, cost = hours_and_cost(option, epochs_of, examples, price)
        if cost <= budget and hours <= deadline_hours and (best is None or hours < best[0]):
            best = (hours, name)
    return best[1] if best else None


def cases() -> list:
    out = []
    for budget, deadline, recipe in SITUATIONS:
        args = (options(), epochs_at(recipe), EXAMPLES, PRICE, budget, deadline)
        out.append(Case(t("plan.ex_case", budget=budget, hours=deadline, recipe=recipe),
                        args=args, expected=solution(*args)))
    return out


def check_choose_plan(fn) -> None:
    def diagnose(case, got):
        opts, epochs_of, examples, price, budget, deadline = case.args
        if got is not None and got not in opts:
            return "plan.ex_hint_unknown"
        if got is None:
            return "plan.ex_hint_none"
        hours, cost = hours_and_cost(opts[got], epochs_of, examples, price)
        if not math.isfinite(hours):
            return "plan.ex_hint_not_reached"
        if cost > budget:
            return "plan.ex_hint_over_budget"
        if hours > deadline:
            return "plan.ex_hint_late"
        return "plan.ex_hint_slower"
    return run_cases(fn, cases(), compare=lambda got, expected: got == expected, diagnose=diagnose)
