"""Exercise 09: pick the cluster that trains a model fastest within a budget.

The learner writes ``fastest_within_budget(model, options, samples, budget)``: ``options`` maps a
name to ``(machine, nodes, network, price per node-hour)``; the answer is the name of the option
that processes ``samples`` training samples soonest among those whose cost (hours x nodes x
price) fits in ``budget``, or ``None`` when none fits. Throughput comes from
``sim.scaleout.scale``. Prices are made-up classroom numbers, not any provider's.
"""
from __future__ import annotations

import functools

from sim.course.exercises.checker import Case, run_cases
from sim.i18n import t

OPTIONS = {
    "2x big-basin, 25 GbE": ("big-basin", 2, "25gbe", 20.0),
    "8x big-basin, 10 GbE": ("big-basin", 8, "10gbe", 20.0),
    "4x dgx1-p100, EDR": ("dgx1-p100", 4, "edr-ib", 24.0),
    "4x pascal-pcie-4gpu, 10 GbE": ("pascal-pcie-4gpu", 4, "10gbe", 8.0),
}
EPOCHS_90 = 90 * 1_281_167          # 90 epochs of ImageNet-1k's training set


@functools.lru_cache(maxsize=None)
def samples_per_s(model: str, machine: str, nodes: int, network: str) -> float:
    from sim.scaleout import scale
    return scale(model, machine, nodes=[nodes], network=network, bucket_mb=64)[0]["samples_per_s"]


def time_and_cost(model: str, option: tuple, samples: float) -> tuple:
    """(hours, cost) of ``samples`` samples of ``model`` on ``option``."""
    machine, nodes, network, price = option
    hours = samples / samples_per_s(model, machine, nodes, network) / 3600
    return hours, hours * nodes * price


def solution(model: str, options: dict, samples: float, budget: float):
    best = None
    for name, option in options.items():
        hours, cost = time_and_cost(model, option, samples)
        if cost <= budget and (best is None or hours < best[0]):
            best = (hours, name)
    return best[1] if best else None


def cases() -> list:
    out = []
    for model, budget in [("resnet50", 500.0), ("resnet50", 360.0), ("resnet50", 300.0),
                          ("vgg16", 750.0), ("inception_v3", 750.0)]:
        samples = EPOCHS_90
        out.append(Case(t("scale.ex_case", model=model, samples=samples, budget=budget),
                        args=(model, OPTIONS, samples, budget),
                        expected=solution(model, OPTIONS, samples, budget)))
    return out


def check_fastest_within_budget(fn) -> int:
    def diagnose(case, got):
        model, options, samples, budget = case.args
        if got is not None and got not in options:
            return "scale.ex_hint_unknown"
        if got is None:
            return "scale.ex_hint_none"
        if time_and_cost(model, options[got], samples)[1] > budget:
            return "scale.ex_hint_over_budget"
        return "scale.ex_hint_slower"
    return run_cases(fn, cases(), compare=lambda got, expected: got == expected, diagnose=diagnose)
