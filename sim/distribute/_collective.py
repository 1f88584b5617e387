"""The seam to sim.collectives: real reduced arrays from its executor, seconds from its replay.

Schedules and replay times are cached by (algorithm, ranks, size): a training loop all-reduces
the same gradient sizes every step, and replaying the same schedule again gives the same time.
"""
from __future__ import annotations

import numpy as np

_schedules: dict = {}
_seconds: dict = {}


def _schedule(algorithm, p, length, machine, devices, itemsize, options):
    key = (algorithm, p, length, id(machine), devices, itemsize, tuple(sorted(options.items())))
    s = _schedules.get(key)
    if s is None:
        from sim.collectives import build
        s = _schedules[key] = build(algorithm, p, length, machine=machine, ranks=list(devices),
                                    itemsize=itemsize, **options)
    return s, key


def replay_seconds(schedule, key, machine, devices, nbytes):
    sec = _seconds.get(key)
    if sec is None:
        from sim.collectives.replay import replay
        sec = _seconds[key] = replay(schedule, machine, nbytes, list(devices))
    return sec


def all_reduce(buffers, algorithm, devices, **options):
    """SUM all-reduce of equal-shape flat ``buffers`` (one per device): (results, seconds)."""
    from sim.collectives import execute
    from sim.distribute._machine import current_machine
    machine = current_machine()
    p = len(buffers)
    length = int(buffers[0].size)
    itemsize = buffers[0].dtype.itemsize
    schedule, key = _schedule(algorithm, p, length, machine, tuple(devices), itemsize, options)
    results = execute(schedule, buffers)
    seconds = replay_seconds(schedule, key, machine, tuple(devices), length * itemsize)
    return [np.asarray(r) for r in results], seconds


def reduce_then_copy_seconds(sources, root, destinations, nbytes):
    """Seconds to copy ``nbytes`` from each source to ``root``, then from ``root`` to each destination.

    This is TF's ReductionToOneDevice (collectives.md §1.2): a gather to one device, add_n there,
    then a broadcast by copy. The root may be a device outside the replicas (the host CPU).
    """
    from sim.collectives.primitives import broadcast, reduce
    from sim.distribute._machine import current_machine
    machine = current_machine()
    total = 0.0
    gather = tuple(d for d in sources if d != root)
    if gather:
        ranks = gather + (root,)
        key = ("gather", ranks, nbytes, id(machine))
        sched = _schedules.get(key) or _schedules.setdefault(key, reduce(len(ranks), 1, root=len(ranks) - 1))
        total += replay_seconds(sched, key, machine, ranks, nbytes)
    scatter = tuple(d for d in destinations if d != root)
    if scatter:
        ranks = (root,) + scatter
        key = ("bcast", ranks, nbytes, id(machine))
        sched = _schedules.get(key) or _schedules.setdefault(key, broadcast(len(ranks), 1, root=0))
        total += replay_seconds(sched, key, machine, ranks, nbytes)
    return total
