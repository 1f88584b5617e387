"""Apply a schedule to real per-device arrays with NumPy: the "numbers" half of one schedule.

The buffers of all ranks live in one ``(p, length)`` array; each transfer is one slice
operation (``buf[dst, a:b] += buf[src, a:b]`` or ``=``), so the work is vectorised over chunks
and the Python loop runs once per transfer, not per element. A round's reads see the buffers
as they were when the round began: when a round writes a range that another of its transfers
reads (recursive doubling's pairwise exchange), only those source slices are copied first.
A schedule is compiled once into a plan (cached on the schedule, rebuilt if its rounds change):
per round, the non-empty transfers as plain tuples and which of them must read a saved copy.
Small buffers (a training step's gradients) run each round as two gathers and two scatters
over flat element indices instead of one slice operation per transfer: the reads are taken
before any write, as the round's semantics say, and each element is written once with the same
NumPy operation (``+=`` or ``=``), so the results are bit-identical to the slice loop. A round
that writes an element twice keeps the slice loop.
"""
from __future__ import annotations

from operator import is_
from typing import Sequence

import numpy as np

from sim.i18n import t

from .schedule import Round, Schedule


def stack_inputs(arrays: Sequence, p: int | None = None) -> tuple[np.ndarray, tuple, np.dtype]:
    """Check the per-device arrays and return them flattened into one ``(p, length)`` buffer."""
    arrays = [np.asarray(a) for a in arrays]
    if not arrays:
        raise ValueError(t("collectives.no_arrays"))
    if p is not None and len(arrays) != p:
        raise ValueError(t("collectives.count_mismatch", got=len(arrays), p=p))
    shape, dtype = arrays[0].shape, arrays[0].dtype
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise ValueError(t("collectives.shape_mismatch", i=i, shape=a.shape, shape0=shape))
        if a.dtype != dtype:
            raise TypeError(t("collectives.dtype_mismatch", i=i, dtype=a.dtype, dtype0=dtype))
    if not np.issubdtype(dtype, np.number):
        raise TypeError(t("collectives.bad_dtype", dtype=dtype))
    buf = np.empty((len(arrays), int(np.prod(shape, dtype=np.int64))), dtype=dtype)
    for i, a in enumerate(arrays):
        buf[i] = a.reshape(-1)
    return buf, shape, dtype


def _conflicts(rnd: Round) -> np.ndarray:
    """Transfers whose source range is written by some transfer of the same round."""
    src, a, b = rnd.src, rnd.start, rnd.stop
    nonempty = b > a
    if not nonempty.any():
        return np.zeros(len(rnd), dtype=bool)
    written = set(rnd.dst[nonempty].tolist())
    maybe = np.fromiter((s in written for s in src.tolist()), dtype=bool, count=len(rnd)) & nonempty
    out = np.zeros(len(rnd), dtype=bool)
    for i in np.flatnonzero(maybe):
        w = (rnd.dst == src[i]) & (rnd.start < b[i]) & (a[i] < rnd.stop) & nonempty
        out[i] = bool(w.any())
    return out


def apply_round(buf: np.ndarray, rnd: Round) -> None:
    """Apply one round in place to the ``(p, length)`` buffer."""
    conflict = _conflicts(rnd)
    saved = {i: buf[rnd.src[i], rnd.start[i]:rnd.stop[i]].copy() for i in np.flatnonzero(conflict)}
    for i, (s, d, a, b, red) in enumerate(zip(rnd.src.tolist(), rnd.dst.tolist(), rnd.start.tolist(),
                                              rnd.stop.tolist(), rnd.reduce.tolist())):
        if b <= a:
            continue
        data = saved[i] if i in saved else buf[s, a:b]
        if red:
            buf[d, a:b] += data
        else:
            buf[d, a:b] = data


# Buffers of at most this many elements (all ranks) run rounds as flat index gathers/scatters.
_SMALL = 4096


class _Plan:
    """One schedule compiled for the executor (see the module docstring)."""

    __slots__ = ("rounds", "p", "length", "steps", "small")

    def __init__(self, schedule: Schedule):
        self.rounds = tuple(schedule.rounds)
        self.p, self.length = schedule.p, schedule.length
        self.steps = [self._compile(rnd) for rnd in self.rounds]
        self.small = None

    @staticmethod
    def _compile(rnd: Round):
        conflict = _conflicts(rnd)
        return [(s, d, a, b, red, bool(c)) for s, d, a, b, red, c in
                zip(rnd.src.tolist(), rnd.dst.tolist(), rnd.start.tolist(), rnd.stop.tolist(),
                    rnd.reduce.tolist(), conflict.tolist()) if b > a]

    def small_steps(self):
        """Per round: ``(red_src, red_dst, copy_src, copy_dst)`` flat indices, or the slice
        transfers when the round writes an element twice."""
        if self.small is None:
            n = self.length
            out = []
            for transfers in self.steps:
                if not transfers:
                    continue
                idx = {True: ([], []), False: ([], [])}
                for s, d, a, b, red, _ in transfers:
                    rng = np.arange(a, b, dtype=np.intp)
                    idx[red][0].append(rng + s * n)
                    idx[red][1].append(rng + d * n)
                dsts = [x for red in (True, False) for x in idx[red][1]]
                alld = np.concatenate(dsts)
                if np.unique(alld).size != alld.size:
                    out.append(transfers)
                    continue
                cat = [np.concatenate(idx[red][k]) if idx[red][k] else None
                       for red in (True, False) for k in (0, 1)]
                out.append(tuple(cat))
            self.small = out
        return self.small


def _plan(schedule: Schedule) -> _Plan:
    plan = schedule.__dict__.get("_executor_plan")
    rounds = schedule.rounds
    if plan is None or plan.p != schedule.p or plan.length != schedule.length \
            or len(plan.rounds) != len(rounds) or not all(map(is_, plan.rounds, rounds)):
        plan = schedule.__dict__["_executor_plan"] = _Plan(schedule)
    return plan


def _apply_transfers(buf: np.ndarray, transfers) -> None:
    saved = {i: buf[s, a:b].copy() for i, (s, d, a, b, red, c) in enumerate(transfers) if c}
    for i, (s, d, a, b, red, c) in enumerate(transfers):
        data = saved[i] if c else buf[s, a:b]
        if red:
            buf[d, a:b] += data
        else:
            buf[d, a:b] = data


def execute_buffer(schedule: Schedule, buf: np.ndarray) -> np.ndarray:
    """Run every round on a ``(p, length)`` buffer in place and return it."""
    if buf.shape != (schedule.p, schedule.length):
        raise ValueError(t("collectives.schedule_mismatch", p=schedule.p, length=schedule.length,
                           shape=buf.shape))
    plan = _plan(schedule)
    if buf.size <= _SMALL and buf.flags.c_contiguous:
        flat = buf.reshape(-1)
        for step in plan.small_steps():
            if type(step) is list:
                _apply_transfers(buf, step)
                continue
            rs, rd, cs, cd = step
            vr = flat[rs] if rs is not None else None
            vc = flat[cs] if cs is not None else None
            if vr is not None:
                flat[rd] += vr
            if vc is not None:
                flat[cd] = vc
        return buf
    for transfers in plan.steps:
        _apply_transfers(buf, transfers)
    return buf


def execute(schedule: Schedule, arrays: Sequence) -> list:
    """Apply ``schedule`` to one array per rank; return one result array per rank.

    The inputs are not modified. For an all-reduce every result equals the sum of the inputs.
    """
    buf, shape, _ = stack_inputs(arrays, schedule.p)
    if buf.shape[1] != schedule.length:
        raise ValueError(t("collectives.schedule_mismatch", p=schedule.p, length=schedule.length,
                           shape=buf.shape))
    execute_buffer(schedule, buf)
    return [buf[i].reshape(shape) for i in range(schedule.p)]
