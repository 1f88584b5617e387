"""Counts the TensorFlow ops a launched task runs before it creates MultiWorkerMirroredStrategy.

TensorFlow refuses a collective strategy created after any op ran ("Collective ops must be
configured at program startup"). The task runner starts ``listen()`` before the script; the
strategy calls ``stop_listening()`` once and raises when the count is not zero. A module of its
own, so the runner (run as ``__main__``) and the strategy share one counter.
"""
from __future__ import annotations

import importlib


class _Counter:
    """sim.engine.counting's listener protocol: flops, bytes and ops, added to by every op."""

    __slots__ = ("flops", "bytes", "ops")

    def __init__(self):
        self.flops = self.bytes = self.ops = 0


_counter = None     # the counter while it listens


def _counting():
    return importlib.import_module("sim.engine.counting")   # the package re-exports a function


def listen() -> None:
    global _counter
    _counter = _Counter()
    _counting()._active.append(_counter)


def stop_listening() -> int:
    """Ops run so far, then stop counting (0 when nobody listened)."""
    global _counter
    if _counter is None:
        return 0
    active = _counting()._active
    if _counter in active:
        active.remove(_counter)
    n, _counter = _counter.ops, None
    return n
