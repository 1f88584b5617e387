"""Two-level (hierarchical) all-reduce for ``p = N·g`` ranks: N nodes of g GPUs (reference §1.6).

* ``hierarchical`` (variant B: Horovod's hierarchical all-reduce, horovod/horovod PR #411;
  Mikami et al. 2018): intra-node ring reduce-scatter, then GPU ``j`` of every node runs a ring
  all-reduce of shard ``j`` with GPU ``j`` of the other nodes (``g`` rings side by side), then
  intra-node ring all-gather. ``2(g-1) + 2(N-1)`` steps; per-GPU bytes equal the ring optimum.
* ``hierarchical_reduce`` (variant A: TF ``all_reduce.py`` ``_build_nccl_hybrid``, "nccl/xring"):
  intra-node binomial reduce to the node's first GPU, a ring all-reduce of the full buffer
  among those leaders, intra-node binomial broadcast. Only one GPU per node uses the network.

``nodes`` is an ``(N, g)`` array of ranks (row = node); ``node_groups`` makes it from a group size.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .ring import all_gather_rounds, reduce_scatter_rounds
from .schedule import Round, Schedule, even_bounds
from .trees import binomial_broadcast_rounds, binomial_reduce_rounds


def default_group_size(p: int, limit: int = 8) -> int:
    """The largest divisor of ``p`` not above ``limit`` (8 GPUs per node, as on DGX machines)."""
    return max(d for d in range(1, min(p, limit) + 1) if p % d == 0)


def node_groups(p: int, group_size: int | None = None, nodes=None) -> np.ndarray:
    """Ranks as an ``(N, g)`` array, one row per node."""
    if nodes is not None:
        nodes = np.atleast_2d(np.asarray(nodes, dtype=np.int64))
        if sorted(nodes.ravel().tolist()) != list(range(p)):
            raise ValueError(t("collectives.bad_groups", p_minus_one=p - 1))
        return nodes
    g = default_group_size(p) if group_size is None else int(group_size)
    if g < 1 or p % g:
        raise ValueError(t("collectives.group_size", g=g, p=p))
    return np.arange(p, dtype=np.int64).reshape(p // g, g)


def map_rounds(local_rounds: list, groups: np.ndarray) -> list:
    """Run rounds written for local ranks ``0..g-1`` in every row of ``groups`` at once."""
    out = []
    G = groups.shape[0]
    for r in local_rounds:
        out.append(Round(groups[:, r.src].ravel(), groups[:, r.dst].ravel(),
                         np.tile(r.start, G), np.tile(r.stop, G), np.tile(r.reduce, G)))
    return out


def two_level_rounds(nodes: np.ndarray, lo: int, hi: int) -> list:
    """Reduce-scatter in rows, all-reduce in columns on each row-member's shard, all-gather in rows."""
    N, g = nodes.shape
    b = even_bounds(lo, hi, g)
    cols = nodes.T                                           # (g, N): ring j holds GPU j of every node
    return (reduce_scatter_rounds(nodes, lo, hi)
            + reduce_scatter_rounds(cols, b[:-1], b[1:])
            + all_gather_rounds(cols, b[:-1], b[1:])
            + all_gather_rounds(nodes, lo, hi))


def hierarchical(p: int, length: int, group_size: int | None = None, nodes=None) -> Schedule:
    """Reduce-scatter inside nodes, ring across nodes on 1/g shards, all-gather inside nodes."""
    nodes = node_groups(p, group_size, nodes)
    return Schedule("hierarchical", p, length, two_level_rounds(nodes, 0, length),
                    info={"nodes": nodes.tolist()})


def hierarchical_reduce(p: int, length: int, group_size: int | None = None, nodes=None) -> Schedule:
    """Reduce to each node's leader, ring all-reduce among leaders, broadcast inside nodes."""
    nodes = node_groups(p, group_size, nodes)
    N, g = nodes.shape
    rounds = (map_rounds(binomial_reduce_rounds(g, 0, length), nodes)
              + reduce_scatter_rounds(nodes[:, 0], 0, length)
              + all_gather_rounds(nodes[:, 0], 0, length)
              + map_rounds(binomial_broadcast_rounds(g, 0, length), nodes))
    return Schedule("hierarchical_reduce", p, length, rounds, info={"nodes": nodes.tolist()})
