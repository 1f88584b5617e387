"""A collective algorithm as data: rounds of transfers over index ranges of a flat buffer.

"One schedule, two uses" (DESIGN.md): the same rounds are applied to real arrays by
``sim.collectives.executor`` and replayed for time by ``sim.collectives.replay``.

A round is held as NumPy arrays (``src``, ``dst``, ``start``, ``stop``, ``reduce``) rather than a
list of objects, so a 1024-rank ring (2046 rounds x 1024 transfers) is built and replayed
quickly; ``Round.transfers()`` gives the readable view, a list of ``Transfer``.

Semantics of a round (both uses agree on it): every transfer reads its source chunk as it was
when the round began, then writes it to the same index range of the destination's buffer,
either replacing it (``"copy"``) or adding to it (``"reduce"``). Transfers of one round run at
the same time; the next round starts when all of them have finished.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

import numpy as np

from sim.i18n import t

COPY, REDUCE = "copy", "reduce"


class Transfer(NamedTuple):
    """One message: ``src`` sends ``buffer[chunk[0]:chunk[1]]`` to ``dst``; ``op`` is copy or reduce."""

    src: int
    dst: int
    chunk: tuple
    op: str


def _vector(x, dtype, n: int) -> np.ndarray:
    """``x`` as a length-``n`` array (a scalar is repeated; an array of the right kind is shared)."""
    if type(x) is np.ndarray and x.dtype == dtype and x.shape == (n,):
        return x
    return np.broadcast_to(np.asarray(x, dtype=dtype), (n,)).ravel()


class Round:
    """The transfers that run at the same time, as parallel integer arrays."""

    __slots__ = ("src", "dst", "start", "stop", "reduce")

    def __init__(self, src, dst, start, stop, reduce):
        src = np.asarray(src, dtype=np.int64)
        self.src = src if src.ndim == 1 else src.ravel()    # shared as given: the replay's
        n = self.src.size                                   # routing memo keys on identity
        self.dst = _vector(dst, np.int64, n)
        self.start = _vector(start, np.int64, n)
        self.stop = _vector(stop, np.int64, n)
        self.reduce = _vector(reduce, bool, n)

    def __len__(self) -> int:
        return int(self.src.size)

    @property
    def sizes(self) -> np.ndarray:
        """Elements carried by each transfer."""
        return self.stop - self.start

    def transfers(self) -> list:
        """The readable view: a list of ``Transfer``."""
        return [
            Transfer(int(s), int(d), (int(a), int(b)), REDUCE if r else COPY)
            for s, d, a, b, r in zip(self.src, self.dst, self.start, self.stop, self.reduce)
        ]

    def __iter__(self):
        return iter(self.transfers())

    def __repr__(self) -> str:
        return f"Round({len(self)} transfers)"

    @staticmethod
    def concat(rounds: Sequence["Round"]) -> "Round":
        """Transfers of several rounds running at the same time (e.g. parallel rings)."""
        rounds = [r for r in rounds if r is not None and len(r)]
        if not rounds:
            return Round([], [], [], [], [])
        if len(rounds) == 1:
            return rounds[0]
        return Round(*(np.concatenate([getattr(r, f) for r in rounds]) for f in Round.__slots__))


@dataclass
class Schedule:
    """An algorithm's rounds for ``p`` ranks and a flat buffer of ``length`` elements.

    ``collective`` says what the rounds compute (``all_reduce``, ``reduce_scatter``,
    ``all_gather``, ``broadcast``, ``reduce``); ``info`` holds algorithm details
    (root, tree shape, chunks...) that plots and lessons show.
    """

    name: str
    p: int
    length: int
    rounds: list = field(default_factory=list)
    collective: str = "all_reduce"
    info: dict = field(default_factory=dict)

    def __iter__(self):
        return iter(self.rounds)

    def __len__(self) -> int:
        return len(self.rounds)

    @property
    def num_transfers(self) -> int:
        return int(sum(len(r) for r in self.rounds))

    def elements_sent(self) -> np.ndarray:
        """Elements each rank sends over the whole schedule (for checks and plots)."""
        out = np.zeros(self.p, dtype=np.int64)
        for r in self.rounds:
            np.add.at(out, r.src, r.sizes)
        return out

    @classmethod
    def from_transfers(cls, name: str, p: int, length: int,
                       rounds: Iterable[Iterable[Transfer]], collective: str = "all_reduce") -> "Schedule":
        """Build a schedule from lists of ``Transfer`` (hand-written schedules, exercises)."""
        built = []
        for rnd in rounds:
            rnd = [Transfer(*tr) for tr in rnd]
            for tr in rnd:
                if tr.op not in (COPY, REDUCE):
                    raise ValueError(t("collectives.bad_op", op=tr.op))
            built.append(Round([tr.src for tr in rnd], [tr.dst for tr in rnd],
                               [tr.chunk[0] for tr in rnd], [tr.chunk[1] for tr in rnd],
                               [tr.op == REDUCE for tr in rnd]))
        return cls(name, p, length, built, collective)


def sequence(name: str, p: int, length: int, *parts: "Schedule", collective: str = "all_reduce",
             info: dict | None = None) -> Schedule:
    """One schedule after another (e.g. reduce-scatter then all-gather)."""
    rounds = [r for part in parts for r in part.rounds]
    return Schedule(name, p, length, rounds, collective, dict(info or {}))


def parallel(name: str, p: int, length: int, *parts: "Schedule", collective: str = "all_reduce",
             info: dict | None = None) -> Schedule:
    """Schedules that run side by side: round ``i`` of the result holds round ``i`` of each part."""
    depth = max((len(part.rounds) for part in parts), default=0)
    rounds = [Round.concat([part.rounds[i] for part in parts if i < len(part.rounds)])
              for i in range(depth)]
    return Schedule(name, p, length, rounds, collective, dict(info or {}))


def even_bounds(lo, hi, pieces: int) -> np.ndarray:
    """Boundaries splitting ``[lo, hi)`` into ``pieces`` nearly equal ranges (sizes differ by <= 1).

    Works on arrays of ranges at once: ``lo``/``hi`` of shape (G,) give shape (G, pieces + 1).
    Ranges may be shorter than ``pieces``: some pieces are then empty (still sent: a message
    of zero bytes costs its latency, as on real hardware).
    """
    lo = np.asarray(lo, dtype=np.int64)
    hi = np.asarray(hi, dtype=np.int64)
    k = np.arange(pieces + 1, dtype=np.int64)
    return lo[..., None] + (k * (hi - lo)[..., None]) // pieces


def is_power_of_two(p: int) -> bool:
    return p >= 1 and (p & (p - 1)) == 0
