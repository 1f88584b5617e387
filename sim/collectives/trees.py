"""Tree all-reduces: binomial tree, and the flat pipelined double binary tree (reference §1.5).

The double binary tree here spans all ranks as one level (``double_binary_tree``, its own named
algorithm); NCCL's actual Tree, a chain inside each node and these two trees across the node
leaders, is ``nccl_tree`` (``sim.collectives.nccl_tree``), which reuses the parents built here.

* Binomial tree (Thakur, Rabenseifner & Gropp 2005): reduce to rank 0 in ``⌈lg p⌉`` steps
  (step ``k``: rank ``r`` with ``r mod 2^(k+1) = 2^k`` sends its whole vector to ``r - 2^k``),
  then broadcast back the same way: ``T = 2⌈lg p⌉(α + nβ) + ⌈lg p⌉nγ``. Any ``p``.
* Double binary tree (Sanders, Speck & Träff, "Two-tree algorithms for full bandwidth
  broadcast, reduction and scan", Parallel Computing 2009; NVIDIA/nccl ``src/graph/trees.cc``
  ``ncclGetBtree``/``ncclGetDtree``): tree A is NCCL's in-order binary tree rooted at 0, tree B
  its mirror (``r -> p-1-r``, even ``p``) or its shift by one (odd ``p``), so a rank is interior
  in at most one tree. Each tree carries half the buffer, cut into ``k`` chunks that are
  pipelined: a node of height ``h`` sends chunk ``c`` up at step ``c + h``; after the reduction
  the root's chunks flow down, a node of depth ``d`` sending chunk ``c`` at step ``c + d``.
  A parent's two children share its port, so a step moves two chunks of ``n/(2k)``:
  ``T ≈ 2(H + k - 1)(α + (n/k)β)`` with ``H`` the number of tree levels below the root.
"""
from __future__ import annotations

import numpy as np

from .schedule import Round, Schedule, even_bounds, parallel


def _ceil_log2(p: int) -> int:
    return max(0, (p - 1).bit_length())


def binomial_reduce_rounds(p: int, lo: int, hi: int, root: int = 0) -> list:
    """Binomial-tree reduction of ``[lo, hi)`` to ``root`` (ranks relabelled relative to root)."""
    rel = np.arange(p, dtype=np.int64)
    rounds = []
    for k in range(_ceil_log2(p)):
        senders = rel[(rel % (2 << k)) == (1 << k)]
        rounds.append(Round((senders + root) % p, (senders - (1 << k) + root) % p, lo, hi, True))
    return rounds


def binomial_broadcast_rounds(p: int, lo: int, hi: int, root: int = 0) -> list:
    """Binomial-tree broadcast of ``[lo, hi)`` from ``root``: the reduction's steps reversed."""
    rel = np.arange(p, dtype=np.int64)
    rounds = []
    for k in reversed(range(_ceil_log2(p))):
        senders = rel[((rel % (2 << k)) == 0) & (rel + (1 << k) < p)]
        rounds.append(Round((senders + root) % p, (senders + (1 << k) + root) % p, lo, hi, False))
    return rounds


def binomial_tree(p: int, length: int) -> Schedule:
    """All-reduce by binomial-tree reduce to rank 0 then binomial-tree broadcast."""
    rounds = binomial_reduce_rounds(p, 0, length) + binomial_broadcast_rounds(p, 0, length)
    return Schedule("binomial_tree", p, length, rounds)


def nccl_btree_parents(p: int) -> np.ndarray:
    """Parent of every rank in NCCL's binary tree (``ncclGetBtree``); the root 0 has parent -1."""
    parent = np.full(p, -1, dtype=np.int64)
    for rank in range(1, p):
        bit = rank & -rank                      # lowest set bit
        up = (rank ^ bit) | (bit << 1)
        if up >= p:
            up = rank ^ bit
        parent[rank] = up
    return parent


def nccl_dtree_parents(p: int) -> tuple[np.ndarray, np.ndarray]:
    """The two trees of NCCL's double binary tree (``ncclGetDtree``): mirror (even p) or shift (odd p)."""
    a = nccl_btree_parents(p)
    ranks = np.arange(p)
    if p % 2 == 1:
        shifted = a[(ranks - 1) % p]
        b = np.where(shifted < 0, -1, (shifted + 1) % p)
    else:
        mirrored = a[p - 1 - ranks]
        b = np.where(mirrored < 0, -1, p - 1 - mirrored)
    return a, b


def tree_levels(parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Depth (root 0) and height (leaves 0) of every node of a tree given by parents.

    Vectorised over the nodes, one pass per level (a 8192-rank tree has ~17 levels)."""
    parent = np.asarray(parent, dtype=np.int64)
    p = parent.size
    depth = np.zeros(p, dtype=np.int64)
    up = parent.copy()
    while (live := up >= 0).any():
        depth[live] += 1
        up[live] = parent[up[live]]
    height = np.zeros(p, dtype=np.int64)
    for d in range(int(depth.max(initial=0)), 0, -1):  # deepest first
        at = np.flatnonzero(depth == d)
        np.maximum.at(height, parent[at], height[at] + 1)
    return depth, height


def _pipelined_tree(parent: np.ndarray, bounds: np.ndarray) -> tuple[list, list]:
    """Pipelined reduce (up) and broadcast (down) rounds of one tree over chunk ``bounds``."""
    depth, height = tree_levels(parent)
    k = bounds.size - 1
    child = np.flatnonzero(parent >= 0)
    up = []
    for step in range(k + int(height[child].max(initial=0))):
        c = step - height[child]
        ok = (c >= 0) & (c < k)
        s = child[ok]
        up.append(Round(s, parent[s], bounds[c[ok]], bounds[c[ok] + 1], True))
    down = []
    for step in range(k + int(depth[parent[child]].max(initial=0))):
        c = step - depth[parent[child]]
        ok = (c >= 0) & (c < k)
        d = child[ok]
        down.append(Round(parent[d], d, bounds[c[ok]], bounds[c[ok] + 1], False))
    return up, down


def default_chunks(length: int, chunk: int = 131072) -> int:
    """Pipeline depth: chunks of ``chunk`` elements (512 KiB of float32, NCCL's nominal Simple step)."""
    return max(1, min(64, -(-(length // 2) // chunk)))


def double_binary_tree(p: int, length: int, chunks: int | None = None) -> Schedule:
    """NCCL's Tree all-reduce on one level: two complementary pipelined binary trees."""
    k = default_chunks(length) if chunks is None else max(1, int(chunks))
    if p == 1:
        return Schedule("double_binary_tree", p, length, [], info={"chunks": k})
    half = length // 2
    a, b = nccl_dtree_parents(p)
    up_a, down_a = _pipelined_tree(a, even_bounds(0, half, k))
    up_b, down_b = _pipelined_tree(b, even_bounds(half, length, k))
    up = parallel("", p, length, Schedule("", p, length, up_a), Schedule("", p, length, up_b))
    down = parallel("", p, length, Schedule("", p, length, down_a), Schedule("", p, length, down_b))
    return Schedule("double_binary_tree", p, length, up.rounds + down.rounds,
                    info={"chunks": k, "parents": [a.tolist(), b.tolist()]})
