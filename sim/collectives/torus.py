"""2-D torus all-reduce for TPU slices (reference §1.6 "k-D torus"; Mikami et al., "Massively
Distributed SGD: ImageNet/ResNet-50 Training in a Flash", arXiv 1811.05233, 2018).

Chips sit on an ``X × Y`` grid (rank ``y·X + x``) whose rows and columns are rings of ICI links.
Reduce-scatter along the rows (each chip keeps ``1/X``), all-reduce that shard along the
columns (reduce-scatter + all-gather, ``1/(XY)`` each), then all-gather along the rows.
``2(X-1) + 2(Y-1)`` steps instead of ``2(XY-1)``; per-chip bytes equal the ring optimum.
Torus links are full duplex, so by default two counter-rotating copies run on the two halves
of the buffer, halving the bandwidth term (``bidirectional=True``).
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .hierarchical import two_level_rounds
from .schedule import Schedule, parallel


def default_shape(p: int) -> tuple[int, int]:
    """The most square ``(X, Y)`` with ``X·Y = p`` and ``X >= Y``."""
    y = max(d for d in range(1, int(p ** 0.5) + 1) if p % d == 0)
    return p // y, y


def torus(p: int, length: int, shape=None, bidirectional: bool = True) -> Schedule:
    """All-reduce on an ``X × Y`` torus: row reduce-scatter, column all-reduce, row all-gather."""
    x, y = default_shape(p) if shape is None else (int(shape[0]), int(shape[1]))
    if x * y != p:
        raise ValueError(t("collectives.torus_shape", x=x, y=y, xy=x * y, p=p))
    grid = np.arange(p, dtype=np.int64).reshape(y, x)          # row = one X-ring
    info = {"shape": (x, y), "bidirectional": bool(bidirectional)}
    if not bidirectional or p <= 2:
        return Schedule("torus", p, length, two_level_rounds(grid, 0, length), info=info)
    half = length // 2
    fwd = Schedule("", p, length, two_level_rounds(grid, 0, half))
    bwd = Schedule("", p, length, two_level_rounds(grid[::-1, ::-1], half, length))
    return parallel("torus", p, length, fwd, bwd, info=info)
