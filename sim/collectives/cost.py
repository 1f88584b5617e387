"""Closed-form α-β-γ costs of every schedule (reference §1; Thakur, Rabenseifner & Gropp 2005).

``closed_form(algorithm, p, nbytes, alpha, beta, gamma)`` is what the replay must reproduce on a
topology without contention (tests check it for 2..1024 ranks and 8 B..1 GiB): one message
between two ranks costs ``α + mβ``; a rank sends one and receives one message at a time at full
speed (single port, full duplex); reducing ``m`` bytes costs ``mγ``. Where the schedule itself
makes several messages share a port (the root of reduce-to-one, a tree parent's two children),
the form says so: that sharing is part of the algorithm, not contention from the topology.
"""
from __future__ import annotations

import math

from sim.i18n import t

from .algorithms import canonical
from .torus import default_shape
from .trees import default_chunks


def _lg(p: int) -> int:
    return max(0, (p - 1).bit_length())


def ring_cost(p, n, a, b, g=0.0):
    """Ring: ``2(p-1)α + 2(p-1)/p·nβ + (p-1)/p·nγ`` (Patarasuk & Yuan 2009)."""
    return 2 * (p - 1) * a + 2 * (p - 1) / p * n * b + (p - 1) / p * n * g


def reduce_scatter_cost(p, n, a, b, g=0.0):
    """Ring reduce-scatter: ``(p-1)α + (p-1)/p·n(β + γ)``."""
    return (p - 1) * (a + n / p * (b + g))


def all_gather_cost(p, n, a, b, g=0.0):
    """Ring all-gather: ``(p-1)α + (p-1)/p·nβ``."""
    return (p - 1) * (a + n / p * b)


def closed_form(algorithm: str, p: int, nbytes: float, alpha: float, beta: float,
                gamma: float = 0.0, **kw) -> float:
    """Seconds for ``algorithm`` on ``p`` ranks and ``nbytes`` bytes per rank.

    Options: ``shared_port`` (reduce_to_one: the root has one port, the linear ``2(p-1)nβ``),
    ``group_size`` and ``alpha_out``/``beta_out`` (two-level: the inter-node α and β),
    ``shape`` and ``bidirectional`` (torus), ``chunks`` (double binary tree), ``num_packs``
    (hierarchical copy, only 1 has a simple form), ``choice`` (nccl: ``"ring"`` or ``"tree"``).
    """
    name = canonical(algorithm)
    p, n, a, b, g = int(p), float(nbytes), float(alpha), float(beta), float(gamma)
    if p <= 1:
        return 0.0
    lg = _lg(p)
    if name == "ring":
        return ring_cost(p, n, a, b, g)
    if name == "reduce_to_one":
        # §1.2: gather to the root then broadcast; copies queue on a shared root port
        share = (p - 1) if kw.get("shared_port", True) else 1
        return 2 * a + 2 * share * n * b + (p - 1) * n * g
    if name == "recursive_doubling":
        return lg * (a + n * b + n * g)
    if name == "halving_doubling":
        return 2 * lg * a + 2 * (p - 1) / p * n * b + (p - 1) / p * n * g
    if name == "binomial_tree":
        return 2 * lg * (a + n * b) + lg * n * g
    if name == "double_binary_tree":
        # §1.5 pipelined tree, two trees of n/2 in k chunks: (D + k - 1) steps per phase, a
        # parent's two children share its port: 2 chunks of n/(2k) per step
        k = kw.get("chunks") or default_chunks(int(nbytes) // kw.get("itemsize", 1),
                                               kw.get("chunk_elems", 131072))
        steps = lg + k - 1
        return 2 * steps * (a + n / k * b) + steps * n / k * g
    if name in ("hierarchical", "torus", "hierarchical_reduce"):
        if name == "torus":
            x, y = kw.get("shape") or default_shape(p)
            gsz, nn = x, y
        else:
            gsz = kw.get("group_size") or _default_group(p)
            nn = p // gsz
        ao, bo = kw.get("alpha_out", a), kw.get("beta_out", b)
        if name == "hierarchical_reduce":
            return (2 * _lg(gsz) * (a + n * b) + _lg(gsz) * n * g + ring_cost(nn, n, ao, bo, g)
                    if nn > 1 else 2 * _lg(gsz) * (a + n * b) + _lg(gsz) * n * g)
        m = n / 2 if (name == "torus" and kw.get("bidirectional", True) and p > 2) else n
        inner = 2 * (gsz - 1) * (a + m / gsz * b) + (gsz - 1) / gsz * m * g
        outer = ring_cost(nn, m / gsz, ao, bo, g) if nn > 1 else 0.0
        return inner + outer
    if name == "hierarchical_copy":
        # §1.7 with the roots' ports shared: (h-1) copies in, 1 across, 1 back, (h-1) out
        h = p // 2
        if kw.get("shared_port", True):
            steps = 2 + (2 if h > 1 else 0)
            return steps * a + (2 * (h - 1) + 2) * n * b + h * n * g
        return 4 * a + 4 * n * b + h * n * g
    if name == "nccl":
        choice = kw.get("choice", "ring")
        return closed_form("ring" if choice == "ring" else "double_binary_tree", p, nbytes, a, b, g, **kw)
    raise ValueError(t("collectives.unknown_algorithm", name=algorithm, known="..."))


def _default_group(p: int) -> int:
    from .hierarchical import default_group_size
    return default_group_size(p)


def primitive_cost(collective: str, p: int, n: float, a: float, b: float, g: float = 0.0) -> float:
    """Reduce-scatter / all-gather (ring), broadcast / reduce (binomial): reference §1.1 table."""
    if p <= 1:
        return 0.0
    if collective == "reduce_scatter":
        return reduce_scatter_cost(p, n, a, b, g)
    if collective == "all_gather":
        return all_gather_cost(p, n, a, b)
    if collective == "broadcast":
        return _lg(p) * (a + n * b)
    if collective == "reduce":
        return _lg(p) * (a + n * b + n * g)
    raise ValueError(collective)


def busbw_factor(p: int, collective: str = "all_reduce") -> float:
    """nccl-tests' bus-bandwidth factor (reference §2, NVIDIA/nccl-tests doc/PERFORMANCE.md)."""
    if collective == "all_reduce":
        return 2 * (p - 1) / p
    if collective in ("reduce_scatter", "all_gather", "all_to_all"):
        return (p - 1) / p
    return 1.0


def bandwidths(nbytes: float, seconds: float, p: int, collective: str = "all_reduce") -> tuple:
    """``(algbw, busbw)`` in bytes/s as nccl-tests defines them: ``algbw = S/t``, ``busbw = algbw·factor``."""
    if seconds <= 0 or not math.isfinite(seconds):
        return 0.0, 0.0
    alg = nbytes / seconds
    return alg, alg * busbw_factor(p, collective)


def port_model_time(schedule, nbytes: float, alpha: float, beta: float, gamma: float = 0.0) -> float:
    """The single-port α-β model applied to any schedule, round by round.

    A round costs ``α + β·(most bytes any rank sends or receives in it) + γ·(most bytes any
    rank adds)``: a rank's port is shared by its concurrent messages, different ranks' ports are
    independent (a non-blocking switch). This is the closed form of pipelined schedules whose
    per-step load varies (the double binary tree's fill and drain), and a check of the simulator
    independent of routing and fair sharing.
    """
    import numpy as np

    p = schedule.p
    scale = float(nbytes) / schedule.length if schedule.length else 0.0
    total = 0.0
    for rnd in schedule.rounds:
        if not len(rnd):
            continue
        sizes = rnd.sizes.astype(np.float64) * scale
        out_b = np.bincount(rnd.src, weights=sizes, minlength=p).max()
        in_b = np.bincount(rnd.dst, weights=sizes, minlength=p).max()
        red = rnd.reduce
        add = np.bincount(rnd.dst[red], weights=sizes[red], minlength=p).max() if red.any() else 0.0
        total += alpha + beta * max(out_b, in_b) + gamma * add
    return total
