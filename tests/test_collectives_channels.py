"""Multi-channel ring (NCCL's channels, reference §1.3 and §1.6): exact sums, the closed form with
the bandwidth term divided by c on an uncontended cluster, the NIC-capped bus bandwidth of the
DGX cluster preset, and single-node machines left exactly as they were."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from sim.collectives import build, execute
from sim.collectives.algorithms import default_channels
from sim.collectives.cost import bandwidths, closed_form
from sim.collectives.replay import default_ranks, replay
from sim.collectives.ring import channel_orders, ring
from sim.hardware import devices as D
from sim.hardware import preset
from sim.hardware.machine import Machine

ALPHA, BW = 4e-6, 20e9


def _same_rounds(a, b) -> bool:
    return len(a.rounds) == len(b.rounds) and all(
        all(np.array_equal(getattr(x, f), getattr(y, f)) for f in ("src", "dst", "start", "stop", "reduce"))
        for x, y in zip(a.rounds, b.rounds))


# ---- the schedule ---------------------------------------------------------------------------

def test_channel_orders_rotate_inside_each_node():
    nodes = np.arange(12).reshape(3, 4)
    orders = channel_orders(12, 4, nodes)
    assert orders[0].tolist() == list(range(12))                # channel 0 is the plain ring
    for k, order in enumerate(orders):
        assert sorted(order.tolist()) == list(range(12))
        entries = [order[i * 4] % 4 for i in range(3)]           # first local GPU in each node
        exits = [order[i * 4 + 3] % 4 for i in range(3)]          # last local GPU in each node
        assert entries == [k] * 3 and exits == [(k - 1) % 4] * 3
    # every node is left through a different GPU by every channel (so a different NIC)
    assert len({int(o[3]) for o in orders}) == 4


@pytest.mark.parametrize("p,nodes,c,length", [(8, (2, 4), 4, 1000), (16, (2, 8), 8, 4096),
                                             (12, (3, 4), 3, 7), (6, (3, 2), 2, 1), (8, (1, 8), 8, 64)])
def test_multi_channel_ring_sums_exactly(p, nodes, c, length):
    rng = np.random.default_rng(p + c + length)
    arrays = [rng.integers(-1000, 1000, length).astype(np.float64) for _ in range(p)]
    sched = ring(p, length, channels=c, nodes=np.arange(p).reshape(nodes))
    assert sched.info["channels"] == c and len(sched.rounds) == 2 * (p - 1)
    want = np.sum(arrays, axis=0)
    for out in execute(sched, arrays):
        np.testing.assert_array_equal(out, want)
    # each rank sends the ring optimum 2(p-1)/p·n in total, over all channels
    sent = sched.elements_sent()
    assert abs(sent.max() - 2 * (p - 1) / p * length) <= 2 * (p - 1) * c


def test_one_channel_is_the_plain_ring_and_bad_counts_explain():
    assert _same_rounds(ring(16, 999, channels=1, nodes=np.arange(16).reshape(2, 8)), ring(16, 999))
    with pytest.raises(ValueError, match="9"):
        ring(16, 999, channels=9, nodes=np.arange(16).reshape(2, 8))
    with pytest.raises(ValueError, match="bidirectional"):
        ring(16, 999, channels=2, bidirectional=True)


# ---- replay against the closed form ---------------------------------------------------------

@functools.lru_cache(maxsize=None)
def nic_cluster(nodes: int, g: int) -> Machine:
    """N nodes of g GPUs, uncontended for a g-channel ring: each GPU has a crossbar port of
    (g-1)·BW (its g-1 intra-node channel messages of a step each get BW) and its own NIC path of
    BW (its one inter-node message); both paths cost ALPHA (2 hops of ALPHA/2, 4 hops of ALPHA/4;
    routing prefers the crossbar inside a node: same latency, fewer hops)."""
    m = Machine(f"nic-cluster-{nodes}x{g}")
    net = m.add_node("net", "switch")
    for h in range(nodes):
        xbar = m.add_node(f"host{h}:xbar", "switch", host=h)
        for j in range(g):
            dev = m.add_device("GPU", D.A100_SXM4, host=h)
            m.connect(dev, xbar, (g - 1) * BW, ALPHA / 2, "nvswitch")
            nic = m.add_node(f"host{h}:nic{j}", "nic", host=h)
            m.connect(dev, nic, BW, ALPHA / 4, "pcie")
            m.connect(nic, net, BW, ALPHA / 4, "ib")
    return m


@pytest.mark.parametrize("nodes,g", [(2, 4), (2, 8), (4, 8), (16, 8)])
def test_channels_divide_the_bandwidth_term_on_an_uncontended_cluster(nodes, g):
    m = nic_cluster(nodes, g)
    p = nodes * g
    c, _ = default_channels(m, m.gpus)
    assert c == g                                     # one channel per NIC of a node
    for n in (8 * p * c, 2**20, 2**30):
        sched = build("ring", p, n // 4, machine=m, ranks=m.gpus)
        assert sched.info["channels"] == c
        got = replay(sched, m, n)
        want = closed_form("ring", p, n, ALPHA, 1 / BW / c)
        assert got == pytest.approx(want, rel=0.01), (nodes, g, n, got, want)
        # one channel: its NIC hops are the slowest (BW, the others (g-1)·BW), so the ring runs
        # at the NIC's pace: between its bytes alone and the closed form with every hop at BW
        flat = replay(build("ring", p, n // 4, machine=m, ranks=m.gpus, channels=1), m, n)
        assert 2 * (p - 1) / p * n / BW <= flat <= closed_form("ring", p, n, ALPHA, 1 / BW) * 1.0001
        if n >= 2**30:
            assert flat == pytest.approx(2 * (p - 1) / p * n / BW, rel=0.01)


def test_dgx_a100_cluster_busbw_reaches_the_nic_cap_through_pcie():
    """2 DGX A100: the ring crosses the network on all 8 NICs at once; its large-message bus
    bandwidth tends to min(c · GPU→NIC PCIe, NICs · IB port), from the preset's own links."""
    m = preset("dgx-a100-cluster", nodes=2)
    gpus = m.gpus
    p, n = len(gpus), 2**30
    host0 = [d for d in gpus if d.host == 0]
    nics = m.nics(0)
    gpu_nic = min(ln.bandwidth for ln in m.links
                  if {ln.a, ln.b} & {d.name for d in host0} and {ln.a, ln.b} & set(nics))
    nic_net = sum(ln.bandwidth for ln in m.links
                  if (ln.a in nics) != (ln.b in nics) and not {ln.a, ln.b} & {d.name for d in gpus}
                  and m.nodes[ln.b if ln.a in nics else ln.a].host is None)
    c, _ = default_channels(m, gpus)
    assert c == len(nics) == len(host0)
    cap = min(c * gpu_nic, nic_net)
    assert cap < nic_net                               # the PCIe hop, not the IB port, limits
    for name in ("ring", "nccl"):
        sched = build(name, p, n // 4, machine=m, ranks=gpus, itemsize=4)
        assert sched.info.get("channels") == c
        _, bus = bandwidths(n, replay(sched, m, n), p)
        assert 0.97 * cap <= bus <= cap, (name, bus / 1e9, cap / 1e9)
    single = replay(build("ring", p, n // 4, machine=m, ranks=gpus, channels=1), m, n)
    _, bus1 = bandwidths(n, single, p)
    assert bus1 == pytest.approx(gpu_nic, rel=0.03)     # one channel: one GPU's PCIe hop


# ---- single node: exactly as before ---------------------------------------------------------

SINGLE = ("workstation-4gpu", "dgx-a100", "dgx-h100", "dgx1-v100", "tpu-v3-8")


@pytest.mark.parametrize("name", SINGLE + ("tpu-v4", "cpu-cluster"))
def test_single_channel_machines_keep_their_schedules(name):
    m = preset(name)
    ranks = default_ranks(m)
    p = len(ranks)
    assert default_channels(m, ranks)[0] == 1
    for length in (3, 2**18):
        assert _same_rounds(build("ring", p, length, machine=m, ranks=ranks), ring(p, length))
        got = build("nccl", p, length, machine=m, ranks=ranks)
        if got.info["nccl_algorithm"] == "ring":
            assert _same_rounds(got, ring(p, length)) and "channels" not in got.info
        else:                               # NCCL's tree: one chain per node, one channel
            assert _same_rounds(got, build("nccl_tree", p, length, machine=m, ranks=ranks))
            assert got.info["channels"] == 1


@pytest.mark.parametrize("name", SINGLE)
def test_single_node_ring_times_pinned_to_the_closed_form(name):
    """No two ring edges share a link direction on these machines, so an edge's step costs its
    route latency + n/p over its route bandwidth. With rounds as barriers every step costs the
    slowest edge: 2(p-1)·max(step). Driven by dependencies, a segment's path of 2(p-1)
    consecutive edges costs the sum of their steps, and the slowest edge's link still carries
    2(p-1) segments back to back: the time is the larger of those two, exactly (uniform rings:
    both equal 2(p-1)·step, the closed form)."""
    m = preset(name)
    ranks = default_ranks(m)
    p = len(ranks)
    for n in (2**20 * p, 2**28):
        edges = [(ranks[i], ranks[(i + 1) % p]) for i in range(p)]
        lat = [m.route_latency(a, b) for a, b in edges]
        byte = [n / p / m.route_bandwidth(a, b) for a, b in edges]
        step = [a + b for a, b in zip(lat, byte)]
        barrier = 2 * (p - 1) * max(step)
        paths = max(sum(step[(end - k) % p] for k in range(2 * (p - 1))) for end in range(p))
        slowest = max(range(p), key=lambda i: byte[i])
        busiest = 2 * (p - 1) * byte[slowest] + lat[slowest]
        got = replay(build("ring", p, n // 4, machine=m, ranks=ranks), m, n, ranks)
        assert max(paths, busiest) * (1 - 1e-9) <= got <= barrier * (1 + 1e-9), name
        if len(set(step)) == 1:
            assert got == pytest.approx(barrier, rel=1e-9), name
