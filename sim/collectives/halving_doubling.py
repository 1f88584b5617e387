"""Recursive doubling and recursive halving-doubling (Rabenseifner) all-reduce (reference §1.4).

Sources: Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations
in MPICH", IJHPCA 2005 (and the cost comments in MPICH's allreduce); TF
``tensorflow/python/distribute/all_reduce.py`` ``build_recursive_hd_all_reduce``, which, like
these builders, needs a power-of-two number of devices.

* recursive doubling: step ``k`` exchanges the whole vector with rank ``r XOR 2^k`` and adds:
  ``lg p`` steps of ``n``: ``T = lg p·(α + nβ + nγ)``.
* halving-doubling: step ``h`` of the reduce-scatter exchanges half of the current range with
  ``r XOR 2^h`` (``n/2^(h+1)`` bytes), then the all-gather retraces the steps:
  ``T = 2 lg p·α + 2(p-1)/p·nβ + (p-1)/p·nγ``.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .schedule import Round, Schedule, is_power_of_two


def _need_power_of_two(p: int, name: str) -> None:
    if not is_power_of_two(p):
        lower = 1 << (p.bit_length() - 1)
        raise ValueError(t("collectives.needs_power_of_two", algorithm=name, p=p,
                           lower=lower, upper=lower * 2))


def recursive_doubling(p: int, length: int) -> Schedule:
    """All-reduce by ``lg p`` pairwise exchanges of the whole vector."""
    _need_power_of_two(p, "recursive_doubling")
    ranks = np.arange(p, dtype=np.int64)
    rounds = [Round(ranks, ranks ^ (1 << k), 0, length, True) for k in range(p.bit_length() - 1)]
    return Schedule("recursive_doubling", p, length, rounds)


def halving_doubling(p: int, length: int) -> Schedule:
    """Rabenseifner's all-reduce: recursive-halving reduce-scatter, recursive-doubling all-gather."""
    _need_power_of_two(p, "halving_doubling")
    steps = p.bit_length() - 1
    ranks = np.arange(p, dtype=np.int64)
    lo = np.zeros(p, dtype=np.int64)
    hi = np.full(p, length, dtype=np.int64)
    history = []
    rounds = []
    for h in range(steps):
        partner = ranks ^ (1 << h)
        mid = lo + (hi - lo) // 2
        keep_low = (ranks & (1 << h)) == 0
        # send the half the partner keeps, receive (and add) the half this rank keeps
        send_lo = np.where(keep_low, mid, lo)
        send_hi = np.where(keep_low, hi, mid)
        rounds.append(Round(ranks, partner, send_lo, send_hi, True))
        history.append((partner, lo.copy(), hi.copy(), mid, keep_low))
        lo = np.where(keep_low, lo, mid)
        hi = np.where(keep_low, mid, hi)
    for partner, _, _, _, _ in reversed(history):
        # send the range this rank owns now; the partner owns the other half of the parent range
        rounds.append(Round(ranks, partner, lo, hi, False))
        plo, phi = lo[partner], hi[partner]
        lo, hi = np.minimum(lo, plo), np.maximum(hi, phi)
    return Schedule("halving_doubling", p, length, rounds)
