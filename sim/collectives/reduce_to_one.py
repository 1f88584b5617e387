"""Reduce-to-one + broadcast: what TensorFlow's ``ReductionToOneDevice`` does (reference §1.2).

Source: TF ``tensorflow/python/distribute/cross_device_ops.py`` (``ReductionToOneDevice``:
copy every value to one device, ``add_n`` there, copy the result back). Two rounds: every
non-root sends its full buffer to the root (reduce), then the root sends the sum to everyone
(copy). With a separate link per peer ``T = 2α + 2nβ + (p-1)nγ``; when the root has one shared
port (PCIe to a CPU, host memory) the copies queue on it: ``T = 2α + 2(p-1)nβ + (p-1)nγ``.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .schedule import Round, Schedule


def reduce_to_one(p: int, length: int, root: int = 0) -> Schedule:
    """All-reduce by gathering to ``root``, summing there, and copying the sum back."""
    if not 0 <= root < p:
        raise ValueError(t("collectives.bad_root", root=root, p_minus_one=p - 1))
    others = np.array([r for r in range(p) if r != root], dtype=np.int64)
    rounds = []
    if others.size:
        rounds.append(Round(others, root, 0, length, True))
        rounds.append(Round(np.full(others.size, root), others, 0, length, False))
    return Schedule("reduce_to_one", p, length, rounds, info={"root": root})
