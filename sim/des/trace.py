"""The trace: one record per thing that happened (what, where, start, end), in simulated time.

Batches of transfers (a collective round of 1024 copies) are stored compactly as NumPy arrays
and turned into ``TraceEvent`` rows only when someone reads the trace, so recording a million
transfers costs almost nothing. ``to_chrome_json()`` writes the Chrome Trace Event format
(``ph: "X"`` complete events, microseconds), which Perfetto and chrome://tracing open.
"""
from __future__ import annotations

import json
from typing import NamedTuple

import numpy as np


class TraceEvent(NamedTuple):
    """``kind`` ("compute", "transfer", "failure"), ``name`` (the label), ``where`` (a device
    or ``src→dst``), ``start``/``end`` in simulated seconds, ``status`` ("ok" or "failed")."""

    kind: str
    name: str
    where: str
    start: float
    end: float
    status: str = "ok"
    nbytes: float = 0.0


class _Batch:
    """A batch of transfers started together: arrays, turned into rows only when read."""

    __slots__ = ("name", "wheres", "start", "end", "nbytes", "status", "finished")

    def __init__(self, name, wheres, start, end, nbytes):
        self.name, self.wheres, self.start, self.end, self.nbytes = name, wheres, start, end, nbytes
        self.status = None   # None = all ok; else a list of per-flow statuses
        self.finished = 0    # how many have ended (ok or failed)

    def mark_end(self, local, now) -> None:
        """Flows ``local`` (indices) ended at ``now``; the array is made on the first end."""
        n = self.nbytes.size
        if self.end is None:
            if len(local) == n:                 # the usual case: the whole batch at once,
                self.end = float(now)           # kept as one number until someone reads it
                self.finished = n
                return
            self.end = np.full(n, np.nan)
        self.end[local] = now
        self.finished += len(local)

    def events(self):
        if self.end is None:
            return
        ends = [self.end] * self.nbytes.size if isinstance(self.end, float) else self.end.tolist()
        sizes = self.nbytes.tolist()
        for i, where in enumerate(self.wheres):
            if ends[i] != ends[i]:       # NaN: still in flight, not yet an event
                continue
            status = "ok" if self.status is None else self.status[i]
            yield TraceEvent("transfer", self.name, where, self.start, ends[i], status, sizes[i])


class Trace:
    """Every event of a simulation. Iterate it, index it, or export it."""

    def __init__(self, clock=None):
        self._items: list = []
        self._planned: list = []     # (name, where, start, end) of compute known in advance
        self._clock = clock          # () -> now; planned events count once they have ended

    def add_planned(self, name, where, start, end) -> None:
        """A compute task whose start and end are already certain (nothing can fail it): it
        becomes a trace event when the simulated clock passes its end."""
        self._planned.append((name, where, start, end))

    def add(self, kind, name, where, start, end, status="ok", nbytes=0.0) -> None:
        self._items.append(TraceEvent(kind, name, where, float(start), float(end), status,
                                      float(nbytes)))

    def add_batch(self, batch: _Batch) -> None:
        self._items.append(batch)

    @property
    def events(self) -> list[TraceEvent]:
        """Every event that has ended, ordered by start time (ties: the order they were made)."""
        out: list[TraceEvent] = []
        for item in self._items:
            if isinstance(item, _Batch):
                out.extend(item.events())
            else:
                out.append(item)
        now = self._clock() if self._clock is not None else float("inf")
        out.extend(TraceEvent("compute", name, where, float(start), float(end))
                   for name, where, start, end in self._planned if end <= now)
        out.sort(key=lambda e: e.start)
        return out

    def __iter__(self):
        return iter(self.events)

    def __len__(self) -> int:
        now = self._clock() if self._clock is not None else float("inf")
        return sum(i.finished if isinstance(i, _Batch) else 1 for i in self._items) + sum(1 for p in self._planned if p[3] <= now)

    def __getitem__(self, i):
        return self.events[i]

    def of_kind(self, kind: str) -> list[TraceEvent]:
        return [e for e in self.events if e.kind == kind]

    @property
    def end(self) -> float:
        """When the last recorded event ended (0 for an empty trace)."""
        return max((e.end for e in self.events), default=0.0)

    def to_chrome_json(self, path=None) -> dict:
        """The trace as a Chrome Trace Event dict (``ts``/``dur`` in µs); written to ``path`` if
        given. One "process" per kind, one "thread" per place, named by metadata events."""
        events = sorted(self.events, key=lambda e: (e.start, e.kind, e.where, e.end))
        pids: dict[str, int] = {}
        tids: dict[tuple[str, str], int] = {}
        out: list[dict] = []
        for e in events:
            pid = pids.setdefault(e.kind, len(pids) + 1)
            tid = tids.setdefault((e.kind, e.where), len(tids) + 1)
            args = {"status": e.status}
            if e.nbytes:
                args["bytes"] = e.nbytes
            out.append({"name": e.name or e.kind, "cat": e.kind, "ph": "X", "ts": e.start * 1e6,
                        "dur": (e.end - e.start) * 1e6, "pid": pid, "tid": tid, "args": args})
        meta = [{"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": kind}}
                for kind, pid in pids.items()]
        meta += [{"name": "thread_name", "ph": "M", "pid": pids[kind], "tid": tid,
                  "args": {"name": where}} for (kind, where), tid in tids.items()]
        doc = {"traceEvents": meta + out, "displayTimeUnit": "ns"}
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
        return doc

    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for e in self.events:
            counts[e.kind] = counts.get(e.kind, 0) + 1
        return dict(sorted(counts.items()))


def batch_record(name, wheres, start, nbytes: np.ndarray) -> _Batch:
    """A batch of ``len(nbytes)`` transfers started at ``start``; ``wheres`` names each one."""
    return _Batch(name, wheres, float(start), None, nbytes)
