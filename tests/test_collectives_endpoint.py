"""LogGP's endpoint gap (sim.collectives.endpoint) against its closed forms."""
import dataclasses

import numpy as np
import pytest

from sim.collectives import build
from sim.collectives.compare import compare, machine_of
from sim.collectives.endpoint import serialise
from sim.collectives.replay import replay


def test_k_messages_at_one_endpoint_land_g_apart():
    last = np.full(3, -np.inf)
    times = np.array([5.0, 5.0, 5.0, 5.0, 1.0, 2.0])
    who = np.array([0, 0, 0, 0, 1, 1])
    out = serialise(times, who, np.full(6, 0.5), last)
    assert sorted(out[:4]) == [5.0, 5.5, 6.0, 6.5]          # t + (k-1)g for the 4th
    assert list(out[4:]) == [1.0, 2.0]                      # already g apart: untouched
    assert last[0] == 6.5 and last[1] == 2.0 and last[2] == -np.inf
    again = serialise(np.array([6.0]), np.array([0]), np.array([0.5]), last)
    assert again[0] == 7.0                                  # g after that endpoint's previous one


def _without_gap(name, nodes):
    m = machine_of(name, nodes)
    m.network = dataclasses.replace(m.network, gap=0.0)
    return m


@pytest.mark.parametrize("nodes", [2, 16])
def test_reduce_to_one_pays_g_per_network_message_at_the_root(nodes):
    """Root on node 0 takes 8(N-1) network messages, then sends 8(N-1): each side serialises
    them g apart, the first one free (its cost is in α): T = T(g=0) + 2 (8(N-1) - 1) g."""
    m, free = machine_of("dgx-a100", nodes), _without_gap("dgx-a100", nodes)
    p = len(m.gpus)
    sched = build("reduce_to_one", p, 2)
    g = m.network.gap
    expected = replay(sched, free, 8, free.gpus) + 2 * (8 * (nodes - 1) - 1) * g
    assert replay(sched, m, 8, m.gpus) == pytest.approx(expected, rel=1e-9)


def test_one_node_has_no_gap():
    m = machine_of("dgx-a100", None)
    sched = build("reduce_to_one", 8, 2)
    assert replay(sched, m, 8, m.gpus) < 20e-6


def test_reduce_to_one_is_no_longer_the_fastest_8_bytes_on_1024_gpus():
    rows, _ = compare(machine_of("dgx-a100", 128), [8], ["reduce_to_one", "recursive_doubling", "nccl"])
    t = {r["algorithm"]: r["time_us"] for r in rows}
    assert t["reduce_to_one"] > 2 * 1015 * 1.0 and t["reduce_to_one"] > 10 * t["recursive_doubling"]


def test_tcp_gap_is_larger_than_rdma():
    tcp, roce = machine_of("pascal-pcie-4gpu", 8, "25gbe"), machine_of("pascal-pcie-4gpu", 8, "25gbe-roce")
    assert tcp.network.gap > roce.network.gap > 0
    sched = build("reduce_to_one", 32, 2)
    assert replay(sched, tcp, 8, tcp.gpus) > replay(sched, roce, 8, roce.gpus)


def test_tcp_goodput_is_protocol_arithmetic():
    from sim.hardware.networks import network, tcp_goodput_fraction
    assert tcp_goodput_fraction() == pytest.approx(1448 / 1538)
    assert tcp_goodput_fraction(9000) == pytest.approx(8948 / 9038)        # jumbo frames
    assert network("25gbe").bandwidth == pytest.approx(3.125e9 * 1448 / 1538)
    assert network("25gbe-roce").bandwidth == 3.125e9
