"""Ranges of a ready-time table, vectorised: the replay's reads and writes when a transfer's chunk
spans several pieces of the buffer (a ring over more ranks than elements, a tree's chunks across a
ring's boundaries).

``table`` is ``(ranks, pieces)``; transfer ``i`` covers row ``rank[i]``, pieces ``lo[i]:hi[i]``
(``hi > lo``). ``max_over`` is the latest ready time over each range (``np.maximum.reduceat`` on
the flat table, a range never crossing a row since ``hi <= pieces``); ``raise_to`` lifts every
piece of each range to at least ``when[i]`` (``np.maximum.at`` on the expanded indices, so two
transfers writing one piece keep the later). Both give exactly what a loop over the transfers
gives (``read_loop``/``write_loop`` below, used when ``LOOPS`` is set; tests compare them), in a few
NumPy calls instead of one Python iteration per transfer.
"""
from __future__ import annotations

import numpy as np


def _flat_bounds(table: np.ndarray, rank, lo, hi):
    width = table.shape[1]
    return rank * width + lo, rank * width + hi


def max_over(table: np.ndarray, rank, lo, hi) -> np.ndarray:
    """``[table[r, a:b].max() for r, a, b in zip(rank, lo, hi)]`` in one ``reduceat``."""
    start, stop = _flat_bounds(table, rank, lo, hi)
    flat = np.append(table.ravel(), -np.inf)       # a range may end at the very last piece
    cuts = np.empty(2 * start.size, dtype=np.int64)
    cuts[0::2], cuts[1::2] = start, stop
    return np.maximum.reduceat(flat, cuts)[0::2]


def raise_to(table: np.ndarray, rank, lo, hi, when) -> None:
    """``table[r, a:b] = max(table[r, a:b], w)`` for every transfer, in place."""
    start, stop = _flat_bounds(table, rank, lo, hi)
    length = stop - start
    total = int(length.sum())
    if total == 0:
        return
    offsets = np.arange(total) - np.repeat(np.cumsum(length) - length, length)
    at = np.repeat(start, length) + offsets
    np.maximum.at(table.ravel(), at, np.repeat(np.asarray(when, dtype=np.float64), length))


LOOPS = False       # True: the per-transfer Python loops below (the reference the tests compare to)


def read_loop(table, rank, lo, hi) -> np.ndarray:
    return np.array([table[r, a:b].max() for r, a, b in zip(rank.tolist(), lo.tolist(), hi.tolist())])


def write_loop(table, rank, lo, hi, when) -> None:
    for r, a, b, w in zip(rank.tolist(), lo.tolist(), hi.tolist(), when.tolist()):
        seg = table[r, a:b]
        np.maximum(seg, w, out=seg)
