"""Replay a schedule on a simulated machine for time: the "timing" half of one schedule.

``replay`` (the default everywhere) is driven by dependencies (``sim.collectives.dependencies``):
a transfer starts when the data it sends has arrived and been reduced and its links are free, so
pipelined steps overlap and each hop pays its own latency, as in NCCL.

``round_durations`` is the older round-by-round replay, kept for comparison (the lesson shows
both): each round becomes one batched ``Simulator.transfers`` call (routes, hop latencies and
max-min fair sharing from ``sim.des``) and the next round starts when the slowest transfer of
the round has finished. Rounds are barriers there: a ring across nodes pays the network hop
latency on each of its ``2(p-1)`` steps, where NCCL (reference §3.3) pays it only on the
``2(N-1)`` steps that cross nodes. Rounds with the same (sources, destinations, bytes) pattern
are simulated once and reused.
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
    """Simulated seconds for ``schedule`` on ``machine`` with ``nbytes`` bytes per rank.

    Dependency-driven (module docstring). Given a ``simulator``, the rounds are replayed on it
    one after another instead (``round_durations``), so its trace shows them.
    """
    if simulator is not None:
        return float(round_durations(schedule, machine, nbytes, ranks, gamma=gamma,
                                     simulator=simulator).sum())
    return timing(schedule, machine, nbytes, ranks, gamma=gamma).total


def timing(schedule: Schedule, machine, nbytes: float, ranks=None, *, gamma: float = 0.0,
           keep: bool = False):
    """The dependency-driven replay's ``Timing``: total seconds and, with ``keep=True``, when
    every transfer began and arrived (for timelines)."""
    from sim.hardware import as_machine

    from .dependencies import replay_timing

    machine = as_machine(machine)
    devs = resolve_ranks(machine, ranks, schedule.p)
    return replay_timing(schedule, machine, nbytes, devs, gamma=gamma, keep=keep)
