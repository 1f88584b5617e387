"""Concurrent copies on the current machine, timed by sim.des: (seconds, per-copy trace events).

Used where TensorFlow copies whole tensors between devices without a collective schedule:
CentralStorage's variable reads (CPU → every GPU), ReductionToOneDevice's gather to one device
and its copy back. All copies of one call start together, so they share links max-min fairly
(four GPUs under one PCIe switch split its uplink to the CPU four ways). A training loop repeats
the same copies every step, so results are cached per machine and copy list: no per-step
simulation after the first step.
"""
from __future__ import annotations

import weakref

_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def concurrent(items, label):
    """Copy every ``(src, dst, nbytes)`` at once: ``(seconds, events)``, events from time 0.

    Copies with ``src == dst`` cost nothing and are left out of the events.
    """
    from sim.distribute._machine import current_machine
    machine = current_machine()
    items = tuple((s, d, float(n)) for s, d, n in items if s != d)
    per_machine = _cache.get(machine)
    if per_machine is None:
        per_machine = _cache[machine] = {}
    key = (label, items)
    hit = per_machine.get(key)
    if hit is None:
        hit = per_machine[key] = _simulate(machine, items, label)
    return hit


def _simulate(machine, items, label):
    if not items:
        return 0.0, ()
    from sim.des import Simulator
    sim = Simulator(machine)
    sim.transfers(items, label)
    sim.run()
    return float(sim.now), tuple(sim.trace.events)
