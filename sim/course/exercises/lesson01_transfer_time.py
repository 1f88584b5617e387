"""Exercise 01: predict how long one transfer takes on a given machine (alpha-beta on a route).

The learner writes ``transfer_time(machine, src, dst, nbytes)`` from ``machine.route``: the sum
of the hop latencies plus ``nbytes`` over the slowest hop's bandwidth. The checker compares it
with what the simulator measures on routes of one to five hops (PCIe, NVLink, QPI, InfiniBand,
Ethernet), and names the usual mistakes by recomputing them on the same route.
"""
from __future__ import annotations

from typing import Callable

from sim.course.exercises.checker import Case, close, run_cases
from sim.hardware.units import format_bytes
from sim.i18n import t

CASES = [  # (preset, kwargs, src, dst, nbytes)
    ("workstation-4gpu", {}, "/gpu:0", "/gpu:1", 1e6),
    ("workstation-4gpu", {}, "/gpu:2", "/cpu:0", 100e6),
    ("dgx1-v100", {}, "/gpu:0", "/gpu:3", 256e6),
    ("dgx1-v100", {}, "/gpu:0", "/gpu:5", 64e6),
    ("dgx-a100-cluster", {"nodes": 2}, "/job:worker/task:0/device:GPU:7",
     "/job:worker/task:1/device:GPU:0", 1e9),
    ("cpu-cluster", {"gbe": 25}, "/job:worker/task:0/device:CPU:0",
     "/job:worker/task:3/device:CPU:0", 4e3),
]


def reference_transfer_time(machine, src, dst, nbytes) -> float:
    """Latency of every hop, plus the bytes at the bottleneck bandwidth (cut-through)."""
    hops = machine.route(src, dst)
    return sum(link.latency for link, _ in hops) + nbytes / min(link.bandwidth for link, _ in hops)


def simulated_transfer_time(machine, src, dst, nbytes) -> float:
    """What the simulator measures for the same copy on an idle machine."""
    from sim.des import Simulator
    sim = Simulator(machine)
    sim.transfer(src, dst, nbytes)
    sim.run()
    return sim.now


def _mistakes(machine, src, dst, nbytes):
    hops = machine.route(src, dst)
    lat = sum(link.latency for link, _ in hops)
    slow = min(link.bandwidth for link, _ in hops)
    yield "lesson01.hint_no_latency", nbytes / slow
    if len(hops) > 1:
        yield "lesson01.hint_one_latency", hops[0][0].latency + nbytes / slow
        yield "lesson01.hint_store_forward", lat + sum(nbytes / link.bandwidth for link, _ in hops)
    for bw in {hops[0][0].bandwidth, max(link.bandwidth for link, _ in hops)} - {slow}:
        yield "lesson01.hint_not_bottleneck", lat + nbytes / bw
    yield "lesson01.hint_bits", lat + 8 * nbytes / slow
    yield "lesson01.hint_bits", lat + nbytes / (8 * slow)


def cases() -> list[Case]:
    from sim.hardware import preset
    out = []
    for name, kw, src, dst, nbytes in CASES:
        machine = preset(name, **kw)
        out.append(Case(t("lesson01.case", size=format_bytes(nbytes), src=src, dst=dst,
                          machine=name),
                        args=(machine, src, dst, nbytes),
                        expected=simulated_transfer_time(machine, src, dst, nbytes)))
    return out


def diagnose(case: Case, got) -> str | None:
    for hint, wrong in _mistakes(*case.args):
        if close(got, wrong, rtol=1e-6, atol=0.0):
            return hint
    return None


def _compare(got, expected) -> bool:
    return close(got, expected, rtol=1e-6, atol=0.0)


def check_transfer_time(fn: Callable) -> None:
    """Check ``fn(machine, src, dst, nbytes) -> seconds`` against the simulator."""
    return run_cases(fn, cases(), compare=_compare, diagnose=diagnose)
