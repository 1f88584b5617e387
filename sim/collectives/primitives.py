"""The collective primitives all-reduce is made of: reduce-scatter, all-gather, broadcast, reduce.

Ring reduce-scatter / all-gather follow reference §1.1 (``(p-1)α + (p-1)/p·nβ [+ (p-1)/p·nγ]``);
broadcast and reduce use the binomial tree (``⌈lg p⌉(α + nβ [+ nγ])``), as in MPICH (Thakur,
Rabenseifner & Gropp 2005). Each returns a ``Schedule`` and has a NumPy helper that gives each
rank the part of the result the collective defines.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .executor import execute_buffer, stack_inputs
from .ring import ring_all_gather, ring_reduce_scatter
from .schedule import Schedule, even_bounds
from .trees import binomial_broadcast_rounds, binomial_reduce_rounds


def reduce_scatter(p: int, length: int) -> Schedule:
    """Rank ``r`` ends with the sum of segment ``r`` (segments: ``length`` split into ``p``)."""
    return ring_reduce_scatter(p, length)


def all_gather(p: int, length: int) -> Schedule:
    """Rank ``r`` contributes segment ``r`` of its buffer; every rank ends with every segment."""
    return ring_all_gather(p, length)


def _check_root(root: int, p: int) -> None:
    if not 0 <= root < p:
        raise ValueError(t("collectives.bad_root", root=root, p_minus_one=p - 1))


def broadcast(p: int, length: int, root: int = 0) -> Schedule:
    """Every rank ends with ``root``'s buffer (binomial tree)."""
    _check_root(root, p)
    return Schedule("binomial_tree", p, length, binomial_broadcast_rounds(p, 0, length, root),
                    "broadcast", {"root": root})


def reduce(p: int, length: int, root: int = 0) -> Schedule:
    """``root`` ends with the sum of all buffers (binomial tree)."""
    _check_root(root, p)
    return Schedule("binomial_tree", p, length, binomial_reduce_rounds(p, 0, length, root),
                    "reduce", {"root": root})


def run_reduce_scatter(arrays) -> list:
    """NumPy reduce-scatter: rank ``r`` gets the sum of segment ``r`` of the flattened arrays."""
    buf, _, _ = stack_inputs(arrays)
    p, n = buf.shape
    execute_buffer(reduce_scatter(p, n), buf)
    b = even_bounds(0, n, p)
    return [buf[r, b[r]:b[r + 1]].copy() for r in range(p)]


def run_all_gather(pieces) -> list:
    """NumPy all-gather: every rank gets the concatenation of all ranks' pieces (equal sizes)."""
    pieces = [np.asarray(x).reshape(-1) for x in pieces]
    p = len(pieces)
    stacked, _, _ = stack_inputs(pieces)
    n = stacked.shape[1] * p
    buf = np.zeros((p, n), dtype=stacked.dtype)
    b = even_bounds(0, n, p)
    for r in range(p):
        buf[r, b[r]:b[r + 1]] = pieces[r]
    execute_buffer(all_gather(p, n), buf)
    return [buf[r] for r in range(p)]


def run_broadcast(arrays, root: int = 0) -> list:
    buf, shape, _ = stack_inputs(arrays)
    execute_buffer(broadcast(buf.shape[0], buf.shape[1], root), buf)
    return [buf[r].reshape(shape) for r in range(buf.shape[0])]


def run_reduce(arrays, root: int = 0) -> np.ndarray:
    buf, shape, _ = stack_inputs(arrays)
    execute_buffer(reduce(buf.shape[0], buf.shape[1], root), buf)
    return buf[root].reshape(shape)
