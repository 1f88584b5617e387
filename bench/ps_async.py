"""Benchmark: asynchronous parameter-server training against bare SimPy events, side by side.

Covers: ``sim.scaling.staleness_regimes.run_async``, the engine of the staleness experiments (E4-E6)
and of lesson 07's demo. Scenario: 256 workers, 10,000 applied updates of a small model (the
16-feature streaming regression, a fresh batch of 32 per gradient, exponential compute times),
staleness counted on every update. Baseline, in the same process right after: 256 bare SimPy
processes doing the same number of timeouts (one per update) with the same compute-time
streams. The figure is (our wall time) / (bare SimPy wall time); the target is at most 3.
"""
from __future__ import annotations

import time

import simpy

from sim.des import ComputeTime
from sim.scaling.problems import staleness_regression
from sim.scaling.staleness_regimes import run_async

WORKERS = 256
UPDATES = 10_000
REPEATS = 5            # best of, both sides measured in turn (machine load drifts)
TARGET = 3.0
COMPUTE = ComputeTime(exponential=1.0)


def ours() -> float:
    t0 = time.perf_counter()
    run = run_async(staleness_regression(seed=0), WORKERS, COMPUTE, updates=UPDATES, lr=0.01, seed=0)
    elapsed = time.perf_counter() - t0
    assert len(run.staleness) == UPDATES
    return elapsed


def bare() -> float:
    env = simpy.Environment()
    done = env.event()
    count = [0]

    def worker(times):
        while True:
            yield env.timeout(next(times))
            if done.triggered:
                return
            count[0] += 1
            if count[0] >= UPDATES:
                done.succeed()
                return

    t0 = time.perf_counter()
    for i in range(WORKERS):
        env.process(worker(COMPUTE.stream(0, i)))
    env.run(until=done)
    return time.perf_counter() - t0


def main() -> None:
    pairs = [(ours(), bare()) for _ in range(REPEATS)]
    ours_s = min(p[0] for p in pairs)
    bare_s = min(p[1] for p in pairs)
    ratio = ours_s / bare_s
    print(f"async ps: {UPDATES} updates, {WORKERS} workers: {ours_s:.3f} s; "
          f"bare SimPy, same events: {bare_s:.3f} s")
    print(f"BENCH ps_async: {ratio:.2f}x bare SimPy (target <= {TARGET:g}x) "
          f"{'ok' if ratio <= TARGET else 'MISS'}")


if __name__ == "__main__":
    main()
