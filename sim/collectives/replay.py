"""Replay a schedule on a simulated machine for time: the "timing" half of one schedule.

Each round becomes one batched ``Simulator.transfers`` call (routes, hop latencies and
max-min fair sharing of every link direction come from ``sim.des``); the next round starts when
the slowest transfer of the round has finished, as in the α-β model of the closed forms.

How a 1024-rank ring of 1 GiB (2046 rounds x 1024 transfers) replays in well under 2 s:
a round is NumPy arrays, so its size pattern is hashed in microseconds; a round starts on an
idle network, so its duration depends only on (sources, destinations, bytes): rounds with the
same pattern are simulated once and reused. All 2046 ring steps share one pattern (1 MiB from
every rank to its successor), so the simulator runs one round and the rest is lookups.
The reduction itself (``gamma`` s/B, default 0: fused into the copy as in NCCL) is added per
round as ``gamma x`` the most bytes any rank must add.

Known limit: rounds are barriers. A ring across nodes (any channel count) therefore pays the
network hop latency on each of its ``2(p-1)`` steps, where NCCL's model (reference §3.3) charges it
on ``2(N-1)`` inter-node steps and the intra-node latency on the rest; the bandwidth side is
unaffected (a ring's pipeline runs at its slowest hop). Small multi-node messages come out slower
than NCCL predicts: 16 A100s on 2 nodes pay 30 x 3.7 µs instead of 28 x 0.6 + 2 x 3.7 µs.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .schedule import Schedule


def default_ranks(machine) -> list:
    """The devices an all-reduce runs on by default: the GPUs, else the TPUs, else every device."""
    for kind in ("GPU", "TPU"):
        devs = machine.devices_of(kind)
        if devs:
            return devs
    return list(machine.devices)


def resolve_ranks(machine, ranks, p: int) -> list:
    devs = default_ranks(machine) if ranks is None else [machine.device(r) for r in ranks]
    if ranks is None and len(devs) > p:
        devs = devs[:p]
    if len(devs) != p:
        raise ValueError(t("collectives.count_mismatch", got=len(devs), p=p))
    return devs


def _round_bytes(rnd, scale: float) -> np.ndarray:
    return rnd.sizes.astype(np.float64) * scale


def round_durations(schedule: Schedule, machine, nbytes: float, ranks=None, *, gamma: float = 0.0,
                    simulator=None, label: str = "") -> np.ndarray:
    """Seconds of every round of ``schedule`` for a buffer of ``nbytes`` bytes per rank."""
    from sim.des import Simulator
    from sim.hardware import as_machine

    machine = as_machine(machine)
    devs = resolve_ranks(machine, ranks, schedule.p)
    sim = simulator if simulator is not None else Simulator(machine)
    scale = float(nbytes) / schedule.length if schedule.length else 0.0
    memo: dict = {}
    out = np.zeros(len(schedule.rounds))
    for i, rnd in enumerate(schedule.rounds):
        if not len(rnd):
            continue
        sizes = _round_bytes(rnd, scale)
        key = (rnd.src.tobytes(), rnd.dst.tobytes(), sizes.tobytes())
        dur = memo.get(key)
        if dur is None:
            t0 = sim.now
            done = sim.transfers([(devs[s], devs[d], b) for s, d, b in
                                  zip(rnd.src.tolist(), rnd.dst.tolist(), sizes.tolist())],
                                 label or schedule.name)
            sim.run(until=done)
            dur = memo[key] = sim.now - t0
        if gamma and rnd.reduce.any():
            red = rnd.reduce
            dur += gamma * float(np.bincount(rnd.dst[red], weights=sizes[red], minlength=schedule.p).max())
        out[i] = dur
    return out


def replay(schedule: Schedule, machine, nbytes: float, ranks=None, *, gamma: float = 0.0,
           simulator=None) -> float:
    """Simulated seconds for ``schedule`` on ``machine`` with ``nbytes`` bytes per rank."""
    return float(round_durations(schedule, machine, nbytes, ranks, gamma=gamma,
                                 simulator=simulator).sum())
