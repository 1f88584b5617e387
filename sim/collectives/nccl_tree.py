"""NCCL's Tree all-reduce as NCCL builds it: a chain inside each node, two binary trees across nodes.

Reference §1.5 and NVIDIA/nccl ``src/graph/trees.cc`` / ``connect.cc`` (facts, not code):

* inside a node the GPUs form a **chain** in the channel's ring order; its head is the node's
  leader, the only GPU of the channel that talks to the network;
* across nodes the leaders form NCCL's **double binary tree** (``ncclGetDtree``: tree A with the
  bit-trick parents of ``ncclGetBtree``, tree B its mirror or shift, so a node is interior in at
  most one of them); each tree carries half of the channel's data;
* each channel has its own chain order (the node's GPUs rotated by the channel index, as the
  ring's channels), so channel ``k`` leaves and enters every node through GPU ``k``'s NIC and the
  ``c`` channels use all ``c`` NICs of a node at once;
* the data is pipelined in chunks: a chunk goes up (reduce) as soon as it has been reduced
  below, and comes down (broadcast) as soon as the root has it, while later chunks still go up.

As a schedule: one tree over all ``p`` ranks per (channel, half), whose parent of a chain member
is the member before it and whose parent of a leader is the leader of its parent node. Round
``s`` holds, for every such tree, the reduction of chunk ``s - h`` by every rank of height ``h``
and the broadcast of chunk ``s - H - d`` from every rank of depth ``d`` (``H``: the root's
height), so the broadcast of the first chunks overlaps the reduction of the last.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import t

from .schedule import Round, Schedule, even_bounds, parallel
from .trees import nccl_dtree_parents, tree_levels

CHUNK_ELEMS = 65536        # 256 KiB of float32 per chunk (NCCL pipelines Tree in slices of this order)
MAX_CHUNKS = 256
SLICES = 4                 # a chunk moves in 4 slices, forwarded as they arrive (assumption; NCCL's
                           # protocols split each step into slices so a hop's latency overlaps)
TRANSFER_BUDGET = 2**23    # at most ~8M transfers per schedule: fewer, larger chunks on huge clusters


def chain_tree_parents(nodes: np.ndarray, channel: int, inter: np.ndarray) -> np.ndarray:
    """Parent of every rank in one (channel, tree): chains inside nodes, ``inter`` across them.

    ``nodes`` is ``(N, g)`` (ranks by node), ``inter`` the parent node of each node (-1: root).
    """
    N, g = nodes.shape
    order = nodes[:, (channel + np.arange(g)) % g]          # (N, g): leader first, then the chain
    parent = np.full(N * g, -1, dtype=np.int64)
    parent[order[:, 1:].ravel()] = order[:, :-1].ravel()
    lead = order[:, 0]
    has = inter >= 0
    parent[lead[has]] = lead[inter[has]]
    return parent


def _interleaved(parent: np.ndarray, bounds: np.ndarray) -> list:
    """Up and down rounds of one pipelined tree, the down ones shifted to start when the root
    has the first chunk: round ``s`` = up step ``s`` + down step ``s - H``."""
    depth, height = tree_levels(parent)
    k = bounds.size - 1
    child = np.flatnonzero(parent >= 0)
    if not child.size:
        return []
    H = int(height[parent[child]].max())                 # the root's height
    d_par = depth[parent[child]]
    h_child = height[child]
    rounds = []
    for step in range(H + k + int(d_par.max())):
        c_up = step - h_child
        up = (c_up >= 0) & (c_up < k)
        c_dn = step - H - d_par
        dn = (c_dn >= 0) & (c_dn < k)
        s_up, s_dn = child[up], child[dn]
        rounds.append(Round(np.concatenate([s_up, parent[s_dn]]),
                            np.concatenate([parent[s_up], s_dn]),
                            np.concatenate([bounds[c_up[up]], bounds[c_dn[dn]]]),
                            np.concatenate([bounds[c_up[up] + 1], bounds[c_dn[dn] + 1]]),
                            np.concatenate([np.ones(s_up.size, bool), np.zeros(s_dn.size, bool)])))
    return rounds


def nccl_chunks(piece: int, trees: int = 1, p: int = 1, chunk: int = CHUNK_ELEMS) -> int:
    """Pipeline depth for ``trees`` trees of ``p`` ranks carrying ``piece`` elements each: chunks
    of ``chunk`` elements, at most ``MAX_CHUNKS``, and at most what keeps the schedule within
    ``TRANSFER_BUDGET`` transfers (each chunk crosses every tree edge twice). Beyond 128 nodes
    of 8 GPUs the budget binds and the pipeline's fill and drain cost more (stated, not hidden)."""
    budget = max(16, TRANSFER_BUDGET // max(1, 2 * trees * p))
    return max(1, min(MAX_CHUNKS, budget, -(-piece // chunk)))


def nccl_tree(p: int, length: int, nodes=None, channels: int = 1, chunks: int | None = None) -> Schedule:
    """NCCL's Tree all-reduce of ``length`` elements over ``p`` ranks grouped by node.

    ``nodes``: ``(N, g)`` ranks by node (default: one node of ``p``); ``channels``: 1..g
    (one per NIC of a node across nodes); ``chunks``: pipeline depth per tree (default: chunks
    of ``CHUNK_ELEMS`` elements, at most ``MAX_CHUNKS``).
    """
    nodes = (np.arange(p, dtype=np.int64)[None, :] if nodes is None
             else np.atleast_2d(np.asarray(nodes, dtype=np.int64)))
    N, g = nodes.shape
    if N * g != p or sorted(nodes.ravel().tolist()) != list(range(p)):
        raise ValueError(t("collectives.bad_groups", p_minus_one=p - 1))
    c = int(channels)
    if not 1 <= c <= g:
        raise ValueError(t("collectives.bad_channels", c=channels, g=g))
    slices = even_bounds(0, length, 2 * c)                  # channel k: halves 2k (tree A), 2k+1 (B)
    k = nccl_chunks(int(slices[1] - slices[0]), 2 * c, p) if chunks is None else max(1, int(chunks))
    info = {"chunks": k, "channels": c, "nodes": nodes.tolist(), "slices": SLICES}
    if p == 1:
        return Schedule("nccl_tree", p, length, [], info=info)
    tree_a, tree_b = nccl_dtree_parents(N)
    parts = []
    for ch in range(c):
        for half, inter in enumerate((tree_a, tree_b)):
            lo, hi = slices[2 * ch + half], slices[2 * ch + half + 1]
            parent = chain_tree_parents(nodes, ch, inter)
            parts.append(Schedule("", p, length, _interleaved(parent, even_bounds(lo, hi, k))))
    info["parents"] = [chain_tree_parents(nodes, 0, tree_a).tolist(),
                       chain_tree_parents(nodes, 0, tree_b).tolist()]
    return parallel("nccl_tree", p, length, *parts, info=info)
