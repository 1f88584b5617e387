"""Exercise 11: choose the plan for a stated budget and deadline.

The learner writes ``choose_plan(options, s_min, b_crit, price, budget, deadline_hours)``:
``options`` maps a name to ``(devices, batch_per_device, step_seconds)`` (the step time simulated
by ``sim.plan`` for ResNet-50 on that cluster); steps to target are McCandlish's
``S_min (1 + B_crit / B)`` at the global batch ``B = devices x batch_per_device``; time is steps x
step time; cost is hours x devices x price per device-hour. The answer is the name of the
fastest option that costs at most ``budget`` and ends within ``deadline_hours``, or ``None``.
"""
from __future__ import annotations

import functools

from sim.course.exercises.checker import Case, run_cases
from sim.i18n import t

PRICE = 2.0      # per GPU-hour (a made-up classroom price)
# name -> (machine, nodes, network, strategy); every GPU takes 64 images
CLUSTERS = {
    "1x dgx1-p100": ("dgx1-p100", 1, None, "mirrored-nccl"),
    "4x dgx1-p100, 10 GbE": ("dgx1-p100", 4, "10gbe", "mirrored-nccl"),
    "16x dgx1-p100, 10 GbE, ps-sync": ("dgx1-p100", 16, "10gbe", "ps-sync"),
    "16x dgx1-p100, EDR": ("dgx1-p100", 16, "edr-ib", "mirrored-nccl"),
    "32x dgx1-p100, EDR": ("dgx1-p100", 32, "edr-ib", "mirrored-nccl"),
    "64x dgx1-p100, EDR": ("dgx1-p100", 64, "edr-ib", "mirrored-nccl"),
}
S_MIN = 90 * 1_281_167 / 16384     # the lesson's ResNet-50 curve, warmup left out
# (budget, deadline in hours, B_crit)
SITUATIONS = [(1000.0, 24.0, 16384.0), (700.0, 24.0, 16384.0), (500.0, 24.0, 16384.0),
              (500.0, 1.5, 16384.0), (200.0, 3.5, 4096.0), (400.0, 24.0, 4096.0)]


@functools.lru_cache(maxsize=None)
def options() -> dict:
    """name -> (devices, batch_per_device, step_seconds), the step simulated by sim.plan."""
    from sim.plan import Candidate, model_step
    out = {}
    for name, (machine, nodes, network, strategy) in CLUSTERS.items():
        ps = nodes if strategy.startswith("ps") else 1
        c = Candidate(machine, nodes, network if nodes > 1 else None, 8, strategy, 64, ps)
        out[name] = (8 * nodes, 64, round(model_step("resnet50", c).seconds, 4))
    return out


def hours_and_cost(option: tuple, s_min: float, b_crit: float, price: float) -> tuple:
    devices, batch, step = option
    steps = s_min * (1 + b_crit / (devices * batch))
    hours = steps * step / 3600
    return hours, hours * devices * price


def solution(options, s_min, b_crit, price, budget, deadline_hours):
    best = None
    for name, option in options.items():
        hours, cost = hours_and_cost(option, s_min, b_crit, price)
        if cost <= budget and hours <= deadline_hours and (best is None or hours < best[0]):
            best = (hours, name)
    return best[1] if best else None


def cases() -> list:
    out = []
    for budget, deadline, b_crit in SITUATIONS:
        args = (options(), S_MIN, b_crit, PRICE, budget, deadline)
        out.append(Case(t("plan.ex_case", budget=budget, hours=deadline, b_crit=b_crit),
                        args=args, expected=solution(*args)))
    return out


def check_choose_plan(fn) -> None:
    def diagnose(case, got):
        opts, s_min, b_crit, price, budget, deadline = case.args
        if got is not None and got not in opts:
            return "plan.ex_hint_unknown"
        if got is None:
            return "plan.ex_hint_none"
        hours, cost = hours_and_cost(opts[got], s_min, b_crit, price)
        if cost > budget:
            return "plan.ex_hint_over_budget"
        if hours > deadline:
            return "plan.ex_hint_late"
        return "plan.ex_hint_slower"
    return run_cases(fn, cases(), compare=lambda got, expected: got == expected, diagnose=diagnose)
