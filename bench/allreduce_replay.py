"""Benchmark (a): wall time to simulate a 1024-GPU ring all-reduce of 1 GiB (target < 2 s).

Machine: ``dgx-a100-cluster`` with 128 nodes (1024 A100s, NVSwitch inside nodes, 8 HDR NICs
per node). The ring is built for that machine, as NCCL builds it: 8 channels (one per NIC of a
node), so a round holds 8 x 1024 transfers. How it gets there:

1. the schedule is data: each of the 2046 rounds is five NumPy arrays of 8192 entries, built
   by vectorised index arithmetic (no Python object per transfer);
2. a round is replayed as ONE batched ``Simulator.transfers`` event, whose 8192 flows are
   shared max-min fairly by ``sim.des.flows`` with NumPy;
3. rounds start on an idle network, so a round's duration depends only on its (src, dst,
   bytes) pattern: ``sim.collectives.replay`` hashes the arrays and simulates each distinct
   pattern once. Every ring step has the same pattern, so 1 round is simulated, 2045 are
   looked up.

Baseline, side by side: the same replay without the memo (one simulated round per ring step,
routes already cached), timed on the first 32 rounds and scaled to 2046.
"""
from __future__ import annotations

import time

from sim.collectives import build
from sim.collectives.replay import replay, round_durations
from sim.collectives.schedule import Schedule
from sim.hardware import preset

TARGET = 2.0
P, NBYTES = 1024, 2**30


def main() -> None:
    t0 = time.perf_counter()
    machine = preset("dgx-a100-cluster", nodes=P // 8)
    t1 = time.perf_counter()
    schedule = build("ring", P, NBYTES // 4, machine=machine, ranks=machine.gpus)
    t2 = time.perf_counter()
    seconds = replay(schedule, machine, NBYTES)
    t3 = time.perf_counter()
    total = t3 - t0
    print(f"machine {t1 - t0:.3f} s, schedule ({len(schedule)} rounds x {len(schedule.rounds[0])} "
          f"transfers, {schedule.info.get('channels', 1)} channels) "
          f"{t2 - t1:.3f} s, replay {t3 - t2:.3f} s; simulated all-reduce time {seconds * 1e3:.3f} ms")

    # baseline: no memo: replay the rounds one call each, so no pattern is reused
    sample = 32
    tb0 = time.perf_counter()
    from sim.des import Simulator
    sim = Simulator(machine)
    for rnd in schedule.rounds[:sample]:
        round_durations(Schedule("ring", P, schedule.length, [rnd]), machine, NBYTES, simulator=sim)
    per_round = (time.perf_counter() - tb0) / sample
    base = per_round * len(schedule)
    print(f"without the memo: {per_round * 1e3:.2f} ms per round -> ~{base:.1f} s for "
          f"{len(schedule)} rounds ({base / total:.0f}x slower)")
    print(f"BENCH allreduce_replay: {total:.2f} s wall for 1024-GPU ring of 1 GiB "
          f"(target {TARGET:.0f} s) {'ok' if total < TARGET else 'MISS'}")


if __name__ == "__main__":
    main()
