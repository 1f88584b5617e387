"""Benchmark: simulator events per second against bare SimPy timeouts, side by side.

Covers: the cost of ``Simulator.compute`` and ``Simulator.transfers`` per trace event.
Scenario: data-parallel training steps on a DGX A100 (8 GPUs): every GPU computes a forward
and a backward pass, then the gradients go through a ring all-reduce (2(p-1) rounds of p
concurrent copies). The baseline is a bare SimPy loop doing the same number of timeouts, in
the same process, right after. The figure is (simulator seconds per event) / (SimPy seconds
per event); the target is at most 2.
"""
from __future__ import annotations

import time

import simpy

from sim.des import Simulator
from sim.hardware import preset

STEPS = 150            # training steps
P = 8                  # GPUs
GRAD_BYTES = 100e6     # bytes all-reduced per step
REPEATS = 7            # best of, for both sides (the machine is shared: more draws, less noise)
TARGET = 2.0


def simulated() -> tuple[int, float]:
    m = preset("dgx-a100")
    gpus = m.gpus
    sim = Simulator(m, seed=0)
    ring = [(gpus[i], gpus[(i + 1) % P], GRAD_BYTES / P) for i in range(P)]

    def train():
        for _ in range(STEPS):
            for g in gpus:
                sim.compute(g, flops=2e12, label="forward")
            yield sim.compute(gpus[-1], seconds=0.0)     # wait for the slowest queue
            for g in gpus:
                sim.compute(g, flops=4e12, label="backward")
            yield sim.compute(gpus[-1], seconds=0.0)
            for _ in range(2 * (P - 1)):
                yield sim.transfers(ring, label="all-reduce")

    return _timed(sim, train())


def _timed(sim, process) -> tuple[int, float]:
    """Run one simulator process to the end: (events in its trace, wall seconds)."""
    t0 = time.perf_counter()
    sim.process(process)
    sim.run()
    return len(sim.trace), time.perf_counter() - t0


def bare(n_events: int) -> float:
    env = simpy.Environment()

    def loop():
        for _ in range(n_events):
            yield env.timeout(1e-6)

    t0 = time.perf_counter()
    env.process(loop())
    env.run()
    return time.perf_counter() - t0


def ring_1024() -> tuple[int, float]:
    """Wall time of a 1024-GPU ring all-reduce of 1 GiB (2046 rounds of 1024 copies)."""
    m = preset("dgx-a100-cluster", nodes=128)
    gpus, p = m.gpus, 1024
    sim = Simulator(m)
    items = [(gpus[i], gpus[(i + 1) % p], 2**30 / p) for i in range(p)]

    def ring():
        for _ in range(2 * (p - 1)):
            yield sim.transfers(items, label="ring")

    return _timed(sim, ring())


def main() -> None:
    n_ring, wall_ring = ring_1024()
    print(f"ring all-reduce, 1024 GPUs, 1 GiB: {n_ring} transfers in {wall_ring:.2f} s wall "
          f"({n_ring / wall_ring:,.0f} events/s; bare SimPy "
          f"{n_ring / bare(n_ring):,.0f} timeouts/s)")
    best_sim, best_bare, events = float("inf"), float("inf"), 0
    for _ in range(REPEATS):
        events, wall = simulated()
        best_sim = min(best_sim, wall)
        best_bare = min(best_bare, bare(events))
    ratio = (best_sim / events) / (best_bare / events)
    print(f"events: {events}; simulator {events / best_sim:,.0f} events/s; "
          f"bare SimPy {events / best_bare:,.0f} timeouts/s")
    print(f"BENCH des_events: {ratio:.2f}x bare SimPy per event (target <= {TARGET:.0f}x) "
          f"{'ok' if ratio <= TARGET else 'MISS'}")


if __name__ == "__main__":
    main()
