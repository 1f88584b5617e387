"""The buffer of a replayed collective as pieces, and when each rank's copy of each is ready.

The dependency-driven replay (``dependencies.py``) cuts the buffer at every chunk boundary a
transfer uses; for every (rank, piece) it keeps the time the piece's latest value has fully
arrived (and been reduced), and for sliced schedules the time its first slice has. A transfer
reads the pieces of its range at its source (the latest of their ready times) and writes the
pieces of its range at its destination.
"""
from __future__ import annotations

import numpy as np

from . import ranges as _ranges


class Pieces:
    """Ready times of every (rank, piece) of the buffer; pieces split when a new boundary appears.

    ``tables[0]``: when the piece's latest value has fully arrived (and been reduced);
    ``tables[1]`` (sliced schedules only): when its first slice has. ``locate`` returns, per
    transfer, the first piece of its range and, when some range spans several pieces, the end
    piece too (``None`` when each range is one piece, or empty: then the piece at its start)."""

    def __init__(self, p: int, length: int, schedule=None, tables: int = 1):
        self.p, self.schedule = p, schedule
        self.bounds = np.array([0, max(int(length), 1)], dtype=np.int64)
        self.tables = [np.zeros((p, 1)) for _ in range(tables)]
        self.untouched = True          # nothing written yet: a split needs no copy

    @property
    def ready(self) -> np.ndarray:
        return self.tables[0]

    def locate(self, start: np.ndarray, stop: np.ndarray):
        b = self.bounds
        lo = self._nearly_even(start)
        if lo is not None and (b[lo] == start).all() and (b[lo + 1] == stop).all():
            return lo, None
        last = b.size - 2
        lo = np.minimum(np.searchsorted(b, start, side="right") - 1, last)  # the piece at start
        hi = np.searchsorted(b, stop)
        new = (b[lo] != start) & (start < b[-1]) | (b[np.minimum(hi, last + 1)] != stop)
        if new.any():
            self._split(np.concatenate([start[new], stop[new]]))
            return self.locate(start, stop)
        hi = np.maximum(hi, lo + 1)                 # an empty range: the piece at it
        if (hi == lo + 1).all():                    # every range is one piece (or empty)
            return lo, None
        return lo, hi

    def _nearly_even(self, start: np.ndarray):
        """The piece each ``start`` would open if the pieces were of equal length: exact for the
        schedules' cuts (equal segments, give or take an element), and several times cheaper
        than a binary search; ``locate`` checks it and falls back to the search."""
        b = self.bounds
        pieces = b.size - 1
        if pieces < 64:                  # a search is as cheap
            return None
        guess = np.rint(start * (pieces / float(b[-1]))).astype(np.int64)   # starts are >= 0
        return np.minimum(guess, pieces - 1, out=guess)

    def _split(self, cuts: np.ndarray) -> None:
        old = self.bounds
        if not self.untouched and self.schedule is not None:
            # a second split would copy the tables again (a pipelined tree meets a new chunk every
            # round): cut at every boundary of the schedule at once
            rounds = self.schedule.rounds
            cuts = np.unique(np.concatenate([cuts] + [r.start for r in rounds] + [r.stop for r in rounds]))
            self.schedule = None
        cuts = cuts[(cuts > old[0]) & (cuts < old[-1])]
        new = np.union1d(old, cuts)
        if new.size != old.size:
            if self.untouched:
                self.tables = [np.zeros((self.p, new.size - 1)) for _ in self.tables]
            else:
                at = np.searchsorted(old, new[:-1], side="right") - 1
                self.tables = [np.ascontiguousarray(tb[:, at]) for tb in self.tables]
            self.bounds = new

    def read(self, rank, lo, hi, which: int = 0) -> np.ndarray:
        table = self.tables[which]
        if hi is None:
            return table.ravel()[rank * table.shape[1] + lo]
        if _ranges.LOOPS:
            return _ranges.read_loop(table, rank, lo, hi)
        return _ranges.max_over(table, rank, lo, hi)

    def write(self, rank, lo, hi, when, which: int = 0) -> None:
        self.untouched = False
        table = self.tables[which]
        if hi is None:
            # unbuffered: two writes to one piece keep the later (NumPy 2's ufunc.at is also
            # faster here than a gather, a maximum and a scatter)
            np.maximum.at(table.ravel(), rank * table.shape[1] + lo, when)
            return
        if _ranges.LOOPS:
            _ranges.write_loop(table, rank, lo, hi, when)
        else:
            _ranges.raise_to(table, rank, lo, hi, when)
