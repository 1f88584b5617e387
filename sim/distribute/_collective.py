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

