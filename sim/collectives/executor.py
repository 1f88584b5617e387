"""Apply a schedule to real per-device arrays with NumPy: the "numbers" half of one schedule.

The buffers of all ranks live in one ``(p, length)`` array; each transfer is one slice
operation (``buf[dst, a:b] += buf[src, a:b]`` or ``=``), so the work is vectorised over chunks
and the Python loop runs once per transfer, not per element. A round's reads see the buffers
as they were when the round began: when a round writes a range that another of its transfers
reads (recursive doubling's pairwise exchange), only those source slices are copied first.
"""
from __future__ import annotations

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


def execute_buffer(schedule: Schedule, buf: np.ndarray) -> np.ndarray:
    """Run every round on a ``(p, length)`` buffer in place and return it."""
    if buf.shape != (schedule.p, schedule.length):
        raise ValueError(t("collectives.schedule_mismatch", p=schedule.p, length=schedule.length,
                           shape=buf.shape))
    for rnd in schedule.rounds:
        apply_round(buf, rnd)
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
