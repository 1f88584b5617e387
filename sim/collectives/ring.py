"""Ring all-reduce: reduce-scatter then all-gather around a ring (reference §1.3).

Sources: Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
workstations", JPDC 2009; TF ``tensorflow/python/distribute/all_reduce.py``
(``build_ring_all_reduce``); NCCL's Ring algorithm. ``p - 1`` reduce-scatter steps and ``p - 1``
all-gather steps of ``n/p`` each: ``T = 2(p-1)α + 2(p-1)/p·nβ + (p-1)/p·nγ``.

Convention (NCCL's): after the reduce-scatter rank ``r`` owns the full sum of segment ``r``.
The builders are vectorised over many rings at once (one row of ``groups`` per ring), which
the hierarchical and torus algorithms use for their parallel rings, and the ring itself for its
channels.

Channels (reference §1.3 "``c`` rings on disjoint links", NCCL's channels): ``c`` rings over the
same ranks run side by side, each on its own ``n/c`` of the buffer, so
``T = 2(p-1)α + 2(p-1)/p·nβ/c`` when the rings use disjoint links. Across nodes their orders are
chosen as NCCL's topology search chooses them on a rail-aligned machine (GPU ``j`` on NIC ``j``):
channel ``k`` runs through every node in the same local order rotated by ``k``, so it enters each
node at local GPU ``k`` and leaves it from local GPU ``k-1``: the ``c`` channels cross the network
through ``c`` different GPUs, hence ``c`` different NICs, and a node's NICs all work at once
(reference §1.6: the large-message time tends to ``2(p-1)/p·n / min(B_in, B_net)``). Channel 0
is the plain ring, so ``channels=1`` is the single ring exactly.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .schedule import Round, Schedule, even_bounds, parallel, sequence


TRANSFER_LIMIT = 2**25       # ~34M transfers (~1 GB of schedule): a 1024-GPU ring with 8 channels fits


def _ring_phase(groups: np.ndarray, lo, hi, reduce: bool) -> list:
    """Rounds of a ring reduce-scatter (``reduce=True``) or all-gather over each row of ``groups``.

    ``groups`` is ``(G, m)``: ``G`` rings of ``m`` ranks in ring order; ring ``g`` works on
    ``[lo[g], hi[g])`` split into ``m`` segments; member ``i`` owns segment ``i`` at the end of
    the reduce-scatter (and at the start of the all-gather).
    """
    groups = np.atleast_2d(np.asarray(groups, dtype=np.int64))
    G, m = groups.shape
    if m < 2:
        return []
    lo = np.broadcast_to(np.asarray(lo, dtype=np.int64), (G,))
    hi = np.broadcast_to(np.asarray(hi, dtype=np.int64), (G,))
    bounds = even_bounds(lo, hi, m)                      # (G, m + 1): ring g's segments
    src = groups.ravel()
    dst = np.roll(groups, -1, axis=1).ravel()
    flags = np.broadcast_to(np.asarray(reduce), src.shape)
    # member i sends segment (i - shift) % m: columns m - shift ... 2m - shift - 1 of the
    # segments written twice side by side, a slice instead of a modulo and a gather per round
    starts = np.concatenate([bounds[:, :-1], bounds[:, :-1]], axis=1)
    stops = np.concatenate([bounds[:, 1:], bounds[:, 1:]], axis=1)
    rounds = []
    for step in range(m - 1):
        first = m - (step + 1 if reduce else step)
        rounds.append(Round(src, dst, starts[:, first:first + m].ravel(),
                            stops[:, first:first + m].ravel(), flags))
    return rounds


def reduce_scatter_rounds(groups, lo, hi) -> list:
    return _ring_phase(groups, lo, hi, True)


def all_gather_rounds(groups, lo, hi) -> list:
    return _ring_phase(groups, lo, hi, False)


def ring_order(p: int, order=None) -> np.ndarray:
    """The ring's rank order (identity unless ``order`` gives one, e.g. a machine's NVLink ring)."""
    return np.arange(p, dtype=np.int64) if order is None else np.asarray(order, dtype=np.int64)


def channel_orders(p: int, channels: int, nodes=None) -> np.ndarray:
    """The ``(channels, p)`` ring orders of a multi-channel ring.

    ``nodes`` is an ``(N, g)`` array of ranks, one row per node (default: one node holding
    ranks ``0..p-1``). Channel ``k`` visits the nodes in row order and, inside every node, the
    row rotated by ``k``: ``row[k], row[k+1], ..., row[k-1]``. It enters each node at local GPU
    ``k`` and leaves from local GPU ``k-1``, so no two channels leave (or enter) a node through
    the same GPU. ``channels`` must be between 1 and ``g``.
    """
    nodes = (np.arange(p, dtype=np.int64)[None, :] if nodes is None
             else np.atleast_2d(np.asarray(nodes, dtype=np.int64)))
    N, g = nodes.shape
    c = int(channels)
    if N * g != p or sorted(nodes.ravel().tolist()) != list(range(p)):
        raise ValueError(t("collectives.bad_groups", p_minus_one=p - 1))
    if not 1 <= c <= max(g, 1):
        raise ValueError(t("collectives.bad_channels", c=channels, g=g))
    local = (np.arange(c)[:, None] + np.arange(g)[None, :]) % g          # (c, g) rotations
    return nodes[:, local].transpose(1, 0, 2).reshape(c, p)             # channel k: node 0, 1, ...


def ring(p: int, length: int, order=None, bidirectional: bool = False, channels: int = 1,
         nodes=None) -> Schedule:
    """Ring all-reduce of ``length`` elements over ``p`` ranks.

    ``bidirectional=True`` runs two counter-rotating rings on the two halves of the buffer
    (reference §1.3 variants): on full-duplex links the bandwidth term halves.
    ``channels=c`` runs ``c`` rings side by side on ``c`` slices of the buffer, their orders from
    ``channel_orders(p, c, nodes)`` (module docstring); ``channels=1`` is the single ring.
    """
    rings = max(1, int(channels)) * (2 if bidirectional else 1)
    if 2 * (p - 1) * p * rings > TRANSFER_LIMIT:
        raise ValueError(t("collectives.too_many_transfers", algorithm="ring", p=p, channels=rings,
                           n=2 * (p - 1) * p * rings, limit=TRANSFER_LIMIT))
    if int(channels) > 1:
        if order is not None or bidirectional:
            raise ValueError(t("collectives.channels_options"))
        orders = channel_orders(p, channels, nodes)
        c = orders.shape[0]
        b = even_bounds(0, length, c)
        rounds = (reduce_scatter_rounds(orders, b[:-1], b[1:])
                  + all_gather_rounds(orders, b[:-1], b[1:]))
        return Schedule("ring", p, length, rounds,
                        info={"order": orders[0].tolist(), "orders": orders.tolist(), "channels": c,
                              "channel_bounds": b.tolist()})
    order = ring_order(p, order)
    if bidirectional and p > 2:
        half = length // 2
        fwd = Schedule("ring", p, length,
                       reduce_scatter_rounds(order, 0, half) + all_gather_rounds(order, 0, half))
        bwd = Schedule("ring", p, length,
                       reduce_scatter_rounds(order[::-1], half, length)
                       + all_gather_rounds(order[::-1], half, length))
        return parallel("ring", p, length, fwd, bwd, info={"order": order.tolist(), "bidirectional": True})
    rounds = reduce_scatter_rounds(order, 0, length) + all_gather_rounds(order, 0, length)
    return Schedule("ring", p, length, rounds, info={"order": order.tolist(), "segments":
                    even_bounds(0, length, p).tolist()})


def ring_reduce_scatter(p: int, length: int, order=None) -> Schedule:
    """Ring reduce-scatter: rank ``order[i]`` ends with the sum of segment ``i``."""
    order = ring_order(p, order)
    return Schedule("ring", p, length, reduce_scatter_rounds(order, 0, length), "reduce_scatter",
                    {"order": order.tolist()})


def ring_all_gather(p: int, length: int, order=None) -> Schedule:
    """Ring all-gather: rank ``order[i]`` contributes segment ``i``; every rank ends with all."""
    order = ring_order(p, order)
    return Schedule("ring", p, length, all_gather_rounds(order, 0, length), "all_gather",
                    {"order": order.tolist()})


__all__ = ["ring", "channel_orders", "ring_reduce_scatter", "ring_all_gather", "reduce_scatter_rounds",
           "all_gather_rounds", "sequence"]
