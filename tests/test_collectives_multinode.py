"""Collectives across many nodes: NCCL's tree, the dependency-driven replay, the NIC cap, and
agreement between NCCL's tuning model and the replay (issue 11)."""
from __future__ import annotations

import functools
import os

import numpy as np
import pytest

from sim.collectives import build, execute, nccl_model
from sim.collectives.compare import machine_of
from sim.collectives.cost import bandwidths
from sim.collectives.nccl_tree import chain_tree_parents, nccl_tree
from sim.collectives.replay import default_ranks, replay, round_durations
from sim.collectives.trees import nccl_dtree_parents

GiB = 2**30
PRESETS = ("dgx-a100-cluster", "dgx-h100-cluster", "cpu-cluster")
# The done-when sweep is 2..128 nodes (a 1 GiB replay of 1024 GPUs takes tens of seconds), run
# with SIM_MULTINODE_FULL=1; `make test` checks the small and the medium clusters so it stays quick.
NODES = (2, 4, 8, 16, 32, 64, 128) if os.environ.get("SIM_MULTINODE_FULL") else (2, 4, 16)
# NCCL's pick is within this factor of the faster of ring and tree in the replay (see
# test_nccl_choice_agrees_with_the_replay for where and why they differ)
MARGIN = 3.0
LARGE_MARGIN = 1.4           # from 16 MiB up


@functools.lru_cache(maxsize=None)
def _machine(preset: str, nodes: int):
    m = machine_of(preset, nodes)
    return m, tuple(default_ranks(m))


@functools.lru_cache(maxsize=None)
def _seconds(preset: str, nodes: int, algorithm: str, nbytes: int) -> float:
    m, ranks = _machine(preset, nodes)
    sched = build(algorithm, len(ranks), nbytes // 4, machine=m, ranks=list(ranks), itemsize=4)
    return replay(sched, m, nbytes, list(ranks))


def _nic_cap(m, ranks) -> float:
    """A node's aggregate NIC line rate: its ports into the network."""
    nics = set(m.nics(ranks[0].host))
    return sum(ln.bandwidth for ln in m.links if (ln.a in nics) != (ln.b in nics)
               and m.nodes[ln.b if ln.a in nics else ln.a].host is None)


@pytest.mark.parametrize("N,g,c", [(1, 8, 1), (2, 4, 4), (3, 4, 2), (5, 2, 2), (16, 8, 8)])
def test_nccl_tree_sums_exactly(N, g, c):
    rng = np.random.default_rng(N * 100 + g)
    p = N * g
    nodes = rng.permutation(p).reshape(N, g)
    sched = nccl_tree(p, 1000, nodes, c, chunks=3)
    xs = [rng.standard_normal(1000) for _ in range(p)]
    for out in execute(sched, xs):
        np.testing.assert_allclose(out, sum(xs), rtol=1e-12, atol=1e-12)


def test_nccl_tree_is_chains_in_nodes_and_two_trees_across_leaders():
    N, g = 6, 4
    nodes = np.arange(N * g).reshape(N, g)
    a, b = nccl_dtree_parents(N)
    for ch in range(g):
        for inter in (a, b):
            parent = chain_tree_parents(nodes, ch, inter)
            for n in range(N):
                order = nodes[n, (ch + np.arange(g)) % g]
                assert (parent[order[1:]] == order[:-1]).all()          # the chain
                lead = order[0]                                          # local GPU ch leads
                up = inter[n]
                assert parent[lead] == (-1 if up < 0 else nodes[up, ch % g])
    # each node is interior in at most one of the two trees
    kids_a, kids_b = np.bincount(a[a >= 0], minlength=N), np.bincount(b[b >= 0], minlength=N)
    assert not ((kids_a > 0) & (kids_b > 0)).any()


def test_each_hop_pays_its_own_latency():
    """A tiny ring on 2 DGX A100: driven by dependencies a step costs its own hop's latency
    (NVLink 0.6 µs, network 3.7 µs), so the time is the costliest path of 2(p-1) consecutive
    hops; with rounds as barriers every step paid the network's. Without LogGP's endpoint gap
    (sim.collectives.endpoint) that path is exact; with it, the rank that leads into the network
    injects its pipelined messages at most one per g, so each of the 2(p-1) steps costs at most
    g more (NCCL's model raises every step to the network post overhead)."""
    import dataclasses
    m, ranks = _machine("dgx-a100-cluster", 2)
    free = machine_of("dgx-a100-cluster", 2)
    free.network = dataclasses.replace(free.network, gap=0.0)
    p = len(ranks)
    sched = build("ring", p, 16, machine=m, ranks=list(ranks), channels=1)
    order = sched.info["order"]
    lat = [m.route_latency(ranks[order[i]], ranks[order[(i + 1) % p]]) for i in range(p)]
    path = max(sum(lat[(end - k) % p] for k in range(2 * (p - 1))) for end in range(p))
    assert replay(sched, free, 64, list(free.gpus)) == pytest.approx(path, rel=0.01)
    got = replay(sched, m, 64, list(ranks))
    assert path * 1.01 < got <= path + 2 * (p - 1) * m.network.gap
    assert float(round_durations(sched, m, 64, list(ranks)).sum()) > 2.5 * got
    assert path < 2 * (p - 1) * max(lat) / 2.5


@pytest.mark.parametrize("nodes", [2, 64])
def test_nccl_builds_the_schedule_it_picks(nodes):
    m, ranks = _machine("dgx-a100-cluster", nodes)
    for n in (4 * 2**10, GiB):
        sched = build("nccl", len(ranks), n // 4, machine=m, ranks=list(ranks), itemsize=4)
        pick = _pick("dgx-a100-cluster", nodes, n)
        assert (sched.info["nccl_algorithm"] == "ring") == (pick == "ring")
        if pick == "nccl_tree":
            assert sched.info["channels"] == 8 and sched.info["slices"] > 1


@pytest.mark.slow
@pytest.mark.parametrize("nodes", NODES)
@pytest.mark.parametrize("preset", PRESETS)
def test_busbw_at_1gib_reaches_the_nic_cap(preset, nodes):
    """Done-when of issue 11: NCCL's choice at 1 GiB gets 0.8..1.0 of the node's NIC line rate
    (or of the intra-node bound where lower: A100's GPU->NIC PCIe is 24 GB/s per rail), on
    2..128 nodes; the flat ring does too up to 16 nodes, and above that its decline is no more
    than the latency of its 2(p-1) steps."""
    m, ranks = _machine(preset, nodes)
    p = len(ranks)
    cap = _nic_cap(m, ranks)
    _, bus = bandwidths(GiB, _seconds(preset, nodes, _pick(preset, nodes, GiB), GiB), p)
    assert 0.8 * cap <= bus <= cap * (1 + 1e-9), (bus / 1e9, cap / 1e9)
    ring_t = _seconds(preset, nodes, "ring", GiB)
    _, ring_bus = bandwidths(GiB, ring_t, p)
    if nodes <= 16:
        assert 0.8 * cap <= ring_bus <= cap * (1 + 1e-9), (ring_bus / 1e9, cap / 1e9)
    hop = max(m.route_latency(ranks[0], r) for r in ranks)
    across = m.route_bandwidth(ranks[0], ranks[-1]) * len(m.nics(ranks[0].host))   # GPU->NIC bound
    bytes_only = 2 * (p - 1) / p * GiB / min(cap, across)
    assert ring_t <= bytes_only * 1.01 + 2 * (p - 1) * hop


SIZES = (8, 4 * 2**10, 256 * 2**10, 16 * 2**20, 128 * 2**20, GiB, 4 * GiB)   # 8 B..4 GiB


def _pick(preset: str, nodes: int, nbytes: int) -> str:
    """NCCL's pick as the schedule the replay times (``nccl`` builds exactly this one)."""
    m, ranks = _machine(preset, nodes)
    topo = nccl_model.topology_of(m, list(ranks))
    return "ring" if nccl_model.choose(topo, nbytes)[0] == nccl_model.RING else "nccl_tree"


@pytest.mark.slow
@pytest.mark.parametrize("nodes", NODES)
@pytest.mark.parametrize("preset", PRESETS[:2])
def test_nccl_choice_agrees_with_the_replay(preset, nodes):
    """At every size NCCL's pick (its tuning model) is the fastest of ring and tree in the replay,
    or within MARGIN of it (LARGE_MARGIN from 16 MiB). Where they differ, and why:

    * 2 nodes, large messages: NCCL picks the ring, the replay's tree is ~1.3x faster. With two
      leaders the double binary tree sends each half across the network once each way (S per
      node), the ring 2(p-1)/p·S; NCCL's model rates Tree at busBw/2 and does not see it.
    * 2 nodes, 256 KiB: NCCL picks the ring, the tree is up to ~2.7x faster. NCCL charges its
      protocols' latencies (LL128 base 14 µs, raised intra-node hops, x1.4 ring plateau); the
      replay pays the links' own latencies and no protocol overhead.
    * 4-16 nodes around 16-128 MiB: NCCL switches to the ring a little late (its tree
      correction factors are measured, the replay's tree is ideal): within LARGE_MARGIN.
    """
    for n in SIZES:
        t = {a: _seconds(preset, nodes, a, n) for a in ("ring", "nccl_tree")}
        pick = _pick(preset, nodes, n)
        ratio = t[pick] / min(t.values())
        assert ratio <= (LARGE_MARGIN if n >= 16 * 2**20 else MARGIN), (nodes, n, pick, t)
        if n == 4 * GiB and nodes > 2:
            assert ratio <= 1.15, (nodes, pick, t)
