"""The E1 sweep (11 batch sizes x the learning-rate grid x 3 seeds, reference §3) trained the
stacked way (a whole grid as one (rates, dim) array per batch size and seed) against the same
runs done one learning rate at a time, each rate for exactly as many steps as the stacked run
took (so both do the same number of SGD updates). Prints the wall-time ratio, best of 2 rounds
run side by side. Target: the stacked sweep at least 5x faster.

    PYTHONPATH=. python bench/scaling_sweep.py
"""
from __future__ import annotations

import time

from sim.scaling import experiments as ex
from sim.scaling.regression import StreamingRegression, train_grid

TARGET = 5.0
ROUNDS = 2


def stacked():
    """The sweep as lesson 08 and the tests run it; returns the steps each (seed, batch) took."""
    steps = {}
    for seed in ex.SEEDS:
        problem = StreamingRegression(seed=seed)
        for batch in ex.E1_BATCH_SIZES:
            run = train_grid(problem, batch, ex.E1_LEARNING_RATES, ex.E1_TARGETS, seed=seed)
            steps[seed, batch] = run.updates // len(ex.E1_LEARNING_RATES)
    return steps


def one_rate_at_a_time(steps):
    updates = 0
    for seed in ex.SEEDS:
        problem = StreamingRegression(seed=seed)
        for batch in ex.E1_BATCH_SIZES:
            for rate in ex.E1_LEARNING_RATES:
                updates += train_grid(problem, batch, [rate], seed=seed,
                                      fixed_steps=steps[seed, batch]).updates
    return updates


def main():
    best_stacked = best_single = float("inf")
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        steps = stacked()
        best_stacked = min(best_stacked, time.perf_counter() - t0)
        t0 = time.perf_counter()
        updates = one_rate_at_a_time(steps)
        best_single = min(best_single, time.perf_counter() - t0)
    assert updates == sum(steps.values()) * len(ex.E1_LEARNING_RATES)
    ratio = best_single / best_stacked
    print(f"E1 sweep: {len(ex.E1_BATCH_SIZES)} batch sizes x {len(ex.E1_LEARNING_RATES)} rates x "
          f"{len(ex.SEEDS)} seeds, {updates} SGD updates each way")
    print(f"stacked {best_stacked:.3f} s, one rate at a time {best_single:.3f} s")
    verdict = "ok" if ratio >= TARGET else "MISS"
    print(f"BENCH scaling_sweep: {ratio:.1f}x (target {TARGET:.0f}x) {verdict}")


if __name__ == "__main__":
    main()
