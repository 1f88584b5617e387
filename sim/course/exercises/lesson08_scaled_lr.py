"""Exercise 08a: the global batch and the scaled learning rate of a described cluster.

The learner writes ``global_batch_and_learning_rate(per_replica_batch, workers, gpus_per_worker,
base_learning_rate, base_batch, rule)`` returning ``(global_batch, learning_rate)``: one replica
per GPU, so the global batch is ``per_replica_batch * workers * gpus_per_worker`` (what
``num_replicas_in_sync`` counts under MultiWorkerMirroredStrategy), and the rate is the base
rate (tuned at ``base_batch``) scaled by the rule: ``"linear"`` (x k), ``"sqrt"`` (x sqrt k),
``"none"``, or ``"guide"`` (the guide's ``LEARNING_RATES_BY_BATCH_SIZE``, base ignored), with
``k = global_batch / base_batch``. The expected answers come from ``sim.scaling``.
"""
from __future__ import annotations

import math
from typing import Callable

from sim.course.exercises.checker import Case, close, run_cases
from sim.i18n import t
from sim.scaling import global_batch_size, scaled_learning_rate

# (per_replica_batch, workers, gpus_per_worker, base_learning_rate, base_batch, rule)
CASES = [
    (32, 1, 8, 0.1, 256, "linear"),      # the base itself
    (32, 2, 8, 0.1, 256, "linear"),
    (32, 2, 8, 0.1, 256, "sqrt"),
    (32, 2, 8, 0.1, 256, "none"),
    (64, 4, 8, 0.2, 256, "linear"),
    (64, 4, 8, 0.2, 256, "sqrt"),
    (16, 1, 4, 0.05, 128, "linear"),     # smaller than the base: the rate goes down
    (16, 3, 2, 0.05, 128, "sqrt"),
    (5, 1, 2, 0.1, 5, "guide"),
    (5, 2, 2, 0.1, 5, "guide"),
    (5, 1, 1, 0.3, 5, "guide"),          # the table ignores the base rate
]


def reference(per_replica_batch, workers, gpus_per_worker, base_learning_rate, base_batch, rule):
    """What the solution notebook writes, through sim.scaling."""
    batch = global_batch_size(per_replica_batch, workers * gpus_per_worker)
    return batch, scaled_learning_rate(base_learning_rate, base_batch, batch, rule)


def _rate(base_lr, k, rule):
    return {"linear": base_lr * k, "sqrt": base_lr * math.sqrt(k), "none": base_lr}.get(rule)


# ---------------------------------------------------------------- the usual mistakes

def _only_workers(p, w, g, lr, b0, rule):
    batch = p * w
    return batch, (_rate(lr, batch / b0, rule) if rule != "guide" else None)


def _only_gpus(p, w, g, lr, b0, rule):
    batch = p * g
    return batch, (_rate(lr, batch / b0, rule) if rule != "guide" else None)


def _per_replica_ratio(p, w, g, lr, b0, rule):
    return p * w * g, (_rate(lr, p / b0, rule) if rule != "guide" else None)


def _inverted_ratio(p, w, g, lr, b0, rule):
    return p * w * g, (_rate(lr, b0 / (p * w * g), rule) if rule != "guide" else None)


def _swapped_rules(p, w, g, lr, b0, rule):
    other = {"linear": "sqrt", "sqrt": "linear"}.get(rule)
    return p * w * g, (_rate(lr, p * w * g / b0, other) if other else None)


def _guide_as_linear(p, w, g, lr, b0, rule):
    return p * w * g, (lr * p * w * g / b0 if rule == "guide" else None)


MISTAKES = [
    (_only_workers, "lesson08.hint_only_workers"),
    (_only_gpus, "lesson08.hint_only_gpus"),
    (_per_replica_ratio, "lesson08.hint_per_replica_ratio"),
    (_inverted_ratio, "lesson08.hint_inverted_ratio"),
    (_swapped_rules, "lesson08.hint_swapped_rules"),
    (_guide_as_linear, "lesson08.hint_guide_is_a_table"),
]


def _pair(got):
    try:
        batch, rate = got
        return float(batch), float(rate)
    except (TypeError, ValueError):
        return None


def compare(got, expected) -> bool:
    pair = _pair(got)
    return pair is not None and pair[0] == expected[0] and close(pair[1], expected[1], rtol=1e-6)


def diagnose(case: Case, got) -> str | None:
    pair = _pair(got)
    if pair is None:
        return "lesson08.hint_pair"
    expected = case.expected
    if pair[0] == expected[0] and not close(pair[1], expected[1], rtol=1e-6):
        for wrong, hint in MISTAKES:
            w_batch, w_rate = wrong(*case.args)
            if w_rate is not None and w_batch == pair[0] and close(pair[1], w_rate, rtol=1e-6):
                return hint
        return "lesson08.hint_rate"
    for wrong, hint in MISTAKES:
        if wrong(*case.args)[0] == pair[0]:
            return hint
    return "lesson08.hint_global_batch"


def cases() -> list[Case]:
    return [Case(t("lesson08.case_cluster", p=p, w=w, g=g, lr=lr, b0=b0, rule=rule),
                 args=(p, w, g, lr, b0, rule), expected=reference(p, w, g, lr, b0, rule))
            for p, w, g, lr, b0, rule in CASES]


def check_global_batch_and_learning_rate(fn: Callable) -> int:
    """Check ``fn(per_replica_batch, workers, gpus_per_worker, base_learning_rate, base_batch, rule)``."""
    return run_cases(fn, cases() if callable(fn) else [], compare=compare, diagnose=diagnose)
