"""Clusters from any node (sim.hardware.node_clusters) and named networks (sim.hardware.networks)."""
from __future__ import annotations

import random

import pytest

from sim.hardware import cluster, network, network_names, preset
from sim.hardware import links as L
from sim.hardware.machine import Machine

NODES = ("workstation-4gpu", "dgx1-v100", "dgx-a100", "dgx-h100")


def _uplinks(m, host):
    nics = set(m.nics(host))
    return [ln for ln in m.links if (ln.a in nics) != (ln.b in nics)
            and m.nodes[ln.b if ln.a in nics else ln.a].host is None]


def test_networks_have_cited_line_rates_and_stated_transports():
    assert network_names() == ["10gbe", "25gbe", "25gbe-roce", "50gbe", "100gbe", "edr-ib",
                               "hdr-ib", "ndr-ib"]
    rates = {"10gbe": 1.25e9, "25gbe": 3.125e9, "25gbe-roce": 3.125e9, "50gbe": 6.25e9,
             "100gbe": 12.5e9, "edr-ib": 12.5e9, "hdr-ib": 25e9, "ndr-ib": 50e9}   # §4
    for name, rate in rates.items():
        net = network(name)
        assert net.line_rate == rate and "§4" in net.source
        if name.endswith("-ib") or name.endswith("-roce"):
            assert net.transport == "rdma" and net.bandwidth == rate and net.latency == L.NET_HOP
        else:       # TCP: a stated fraction of the line rate, and a longer per-message latency
            assert net.transport == "tcp" and net.bandwidth < rate and net.latency > 5 * L.NET_HOP
    assert network("HDR_IB") is network("hdr-ib")


@pytest.mark.parametrize("node", NODES)
@pytest.mark.parametrize("net", ["10gbe", "25gbe-roce", "ndr-ib"])
def test_any_node_on_any_network(node, net):
    one = preset(node)
    m = cluster(node, nodes=3, network=net)
    m.check_connected()
    assert m.hosts == [0, 1, 2]
    assert len(m.devices) == 3 * len(one.devices)
    assert [d.model for d in m.devices_of("GPU", host=2)] == [d.model for d in one.gpus]
    nics = max(1, len(one.nics(0)))
    for host in m.hosts:
        ups = _uplinks(m, host)
        assert len(ups) == nics and all(ln.bandwidth == network(net).bandwidth for ln in ups)
    a, b = m.devices_of("GPU", host=0)[0], m.devices_of("GPU", host=2)[0]
    assert m.route_latency(a, b) >= network(net).latency


def test_cluster_presets_are_aliases():
    for alias, node, net in (("dgx-a100-cluster", "dgx-a100", "hdr-ib"),
                             ("dgx-h100-cluster", "dgx-h100", "ndr-ib")):
        old, new = preset(alias, nodes=3), cluster(node, nodes=3, network=net)
        assert old.name == alias
        assert [d.name for d in old.devices] == [d.name for d in new.devices]
        assert sorted((ln.a, ln.b, ln.bandwidth, ln.latency) for ln in old.links) == \
            sorted((ln.a, ln.b, ln.bandwidth, ln.latency) for ln in new.links)
        assert cluster(alias, nodes=2).name.startswith(node)     # an alias names its node
    assert sum(ln.bandwidth for ln in _uplinks(preset("dgx-a100-cluster", nodes=2), 0)) == 200e9


@pytest.mark.parametrize("node,net", [("dgx-a100", "hdr-ib"), ("workstation-4gpu", "10gbe"),
                                      ("dgx1-v100", "edr-ib")])
def test_translated_routes_equal_a_full_search(node, net):
    """A cluster routes by translating its node's routes; a graph search finds the same hops."""
    m = cluster(node, nodes=5, network=net)
    rng = random.Random(0)
    for _ in range(200):
        a, b = rng.choice(m.devices), rng.choice(m.devices)
        if a == b:
            continue
        fast = [(ln.index, way) for ln, way in m.route(a, b)]
        slow = [(ln.index, way) for ln, way in Machine._shortest(m, a.name, b.name)]
        assert fast == slow, (a.name, b.name)


def test_large_cluster_builds_and_routes_quickly_enough_to_be_used():
    m = cluster("dgx-a100", nodes=256)
    assert len(m.gpus) == 2048
    route = m.route(m.gpus[0], m.gpus[-1])
    assert [ln.kind for ln, _ in route] == ["pcie", "infiniband", "infiniband", "pcie"]


@pytest.mark.parametrize("node,key", [("tpu-v4", "TPU slice"), ("tpu-v3-8", "TPU slice"),
                                      ("cpu-cluster", "cpu-cluster")])
def test_nodes_that_are_not_nodes_say_what_to_do(node, key):
    with pytest.raises(ValueError, match=key) as err:
        cluster(node, nodes=2)
    assert "preset(" in str(err.value)


def test_bad_arguments_name_the_mistake():
    with pytest.raises(ValueError, match="Known networks: 10gbe"):
        cluster("dgx-a100", nodes=2, network="infiniband")
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="nodes"):
            cluster("dgx-a100", nodes=bad)
    with pytest.raises(ValueError, match="Known presets"):
        cluster("dgx-z100", nodes=2)


def test_messages_in_every_language():
    from sim.i18n import set_language
    try:
        set_language("zh")
        with pytest.raises(ValueError, match="未知的网络"):
            network("infiniband")
        set_language("pt")
        with pytest.raises(ValueError, match="Rede desconhecida"):
            network("infiniband")
    finally:
        set_language("en")
