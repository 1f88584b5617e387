"""TensorFlow's ``HierarchicalCopyAllReduce``, exactly as TensorFlow implements it (reference §1.7).

Source: TF ``tensorflow/python/distribute/cross_device_utils.py``
(``aggregate_gradients_using_hierarchical_copy``) and ``cross_device_ops.py``
(``HierarchicalCopyAllReduce``, packing in ``AllReduceCrossDeviceOps``). Built for the DGX-1:
two halves of ``h = p // 2`` GPUs. For pack ``i``: ``root0 = i mod p``, ``root1 = (root0 + h) mod p``;
each half copies to its root (``add_n``), root1's partial goes to root0 (``add_n`` of 2), root0's
total goes back to root1, and each root copies it to its half. Four rounds, each moving the full
pack: ``T ≈ 4α + 4mβ + h·mγ`` with separate links (``14m`` on the wire at p = 8, like a ring, but on
few links). Packs: the buffer is cut into ``num_packs`` pieces, the last one taking the remainder,
and the packs run side by side with rotating roots.

TensorFlow's grouping assumes an even device count (with an odd count the last device falls in
neither half and its gradient is dropped); here an odd count is refused with an explanation.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .schedule import Round, Schedule, parallel


def pack_bounds(length: int, num_packs: int) -> list:
    """TF's packing split: ``num_packs`` pieces of ``length // num_packs``, the last takes the rest."""
    k = max(1, min(int(num_packs), max(length, 1)))
    size = length // k
    cuts = [i * size for i in range(k)] + [length]
    return list(zip(cuts[:-1], cuts[1:]))


def _one_pack(p: int, length: int, i: int, lo: int, hi: int) -> Schedule:
    h = p // 2
    root0 = i % p
    root1 = (root0 + h) % p
    g0 = np.arange(0, h) if root0 < h else np.arange(h, 2 * h)
    g1 = np.arange(h, 2 * h) if root0 < h else np.arange(0, h)
    m0, m1 = g0[g0 != root0], g1[g1 != root1]
    members = np.concatenate([m0, m1])
    rounds = [
        Round(members, np.concatenate([np.full(m0.size, root0), np.full(m1.size, root1)]), lo, hi, True),
        Round([root1], [root0], lo, hi, True),
        Round([root0], [root1], lo, hi, False),
        Round(np.concatenate([np.full(m0.size, root0), np.full(m1.size, root1)]), members, lo, hi, False),
    ]
    return Schedule("", p, length, [r for r in rounds if len(r)])


def hierarchical_copy(p: int, length: int, num_packs: int = 1) -> Schedule:
    """TF's HierarchicalCopyAllReduce (default ``num_packs=1``: roots are GPU 0 and GPU p/2)."""
    if p == 1:
        return Schedule("hierarchical_copy", p, length, [], info={"num_packs": num_packs})
    if p % 2:
        raise ValueError(t("collectives.needs_even", algorithm="hierarchical_copy", p=p))
    packs = [_one_pack(p, length, i, lo, hi) for i, (lo, hi) in enumerate(pack_bounds(length, num_packs))]
    return parallel("hierarchical_copy", p, length, *packs,
                    info={"num_packs": num_packs, "roots": [[i % p, (i % p + p // 2) % p]
                                                            for i in range(len(packs))]})
