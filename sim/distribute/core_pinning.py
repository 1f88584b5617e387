"""Where a round of ``strategy.run`` runs: the caller's core, for the replicas too.

The coordinator and its replicas never run at the same time, so they are fastest on one core:
each hand-off then finds the interpreter's working set in that core's caches. Left to the
scheduler, a woken thread often lands on the other, idle core: on the 2-core course machine the
guide's custom loop on 4 replicas took 90 ms per 50 steps that way and 66 ms on one core (pinning
only the replicas did not help: the coordinator moved away). So for the length of
``strategy.run`` the caller's thread is held on the core it was running on (its own CPU set is
restored on the way out) and each replica thread moves to that core when it takes its job (one
syscall, only when the core changed). Where the core cannot be read or set (not Linux, a
restricted cpuset), nothing is pinned. Scheduling only: no number changes.
"""
from __future__ import annotations

import os
import sys

_current_cpu = False     # not looked up yet


def cpu_reader():
    """``sched_getcpu`` (read once, on the first pool: ctypes stays out of ``import sim``), or
    None where the core cannot be read or pinned."""
    global _current_cpu
    if _current_cpu is False:
        _current_cpu = None
        if sys.platform.startswith("linux") and hasattr(os, "sched_setaffinity"):
            try:
                import ctypes
                fn = ctypes.CDLL(None, use_errno=True).sched_getcpu
                fn.restype = ctypes.c_int
                fn.argtypes = []
                if fn() >= 0:
                    _current_cpu = fn
            except (OSError, AttributeError):
                pass
    return _current_cpu


def hold_core(pool):
    """Pin the calling thread to its current core for a round; its CPU set (None: not pinned)."""
    try:
        saved = os.sched_getaffinity(0)
        cpu = _current_cpu()
        if len(saved) > 1:
            os.sched_setaffinity(0, (cpu,))
        pool.cpu = cpu
        return saved
    except (OSError, ValueError):
        pool.pinning = False
        pool.cpu = None
        return None


def release_core(pool, saved):
    try:
        if len(saved) > 1:
            os.sched_setaffinity(0, saved)
    except (OSError, ValueError):
        pool.pinning = False
