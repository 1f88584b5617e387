"""A scheduled function as the ps worker pool holds it, and the record of one run of it."""
from __future__ import annotations

from typing import NamedTuple


class UpdateRecord(NamedTuple):
    """One closure run on a worker: when, which ps version it read and applied, its staleness."""
    closure: int
    worker: int
    start: float
    end: float
    read_version: int
    staleness: int
    status: str          # "applied", "no_update", "aborted", "error", "unavailable"
    read_bytes: float
    write_bytes: float
    ps_tasks: tuple = ()  # the ps tasks this closure read from or wrote to


class Closure:
    def __init__(self, cid, fn, args, kwargs, remote_value):
        self.id, self.fn, self.args, self.kwargs = cid, fn, args, kwargs
        self.remote_value = remote_value
        self.runs = 0
        self.cancelled = False


class _InsideClosure:
    """Pushed on sim.distribute.timing's stack while a closure runs: ``strategy.run`` inside a
    scheduled function is part of the closure (its time is the closure's), not a new step."""

    def charge_to(self, replica):
        pass

    def compute(self, *a, **k):
        pass

    def communicate(self, *a, **k):
        pass

    def note_read(self, var):
        pass
