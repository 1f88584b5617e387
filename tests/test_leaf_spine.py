"""Leaf-spine fabrics (sim/hardware/leaf_spine.py): routes, uplink sizes, placement, and what ECMP's
collisions cost a ring, checked against the closed form.

The closed form: a ring all-reduce runs at its slowest hop, and max-min sharing gives the flows on
the most loaded uplink direction ``capacity / flows`` each, so a large all-reduce slows by
``NIC rate / min(NIC rate, capacity / most flows on one uplink direction)``.
"""
import zlib

import pytest

from sim.hardware import LeafSpine, cluster
from sim.hardware.machine_file import read_machine_file
from sim.scaleout import Communicator
from sim.scaleout.ranks import ring_ranks

BIG = 512 * 2**20            # bytes: the bandwidth term dominates every latency


def _ring_seconds(machine, nbytes=BIG):
    return Communicator(machine, ring_ranks(machine), "horovod").seconds(nbytes)


def _leaves(machine):
    """Each host's leaf (host wiring: every NIC of a host on the same one)."""
    return [row[0] for row in machine.port_leaf]


def _network_hops(machine, src, dst):
    return [(l.a, l.b) for l, _ in machine.route(src, dst) if l.kind in ("ethernet", "infiniband")]


def test_routes_cross_a_spine_only_between_leaves_and_by_the_rule():
    fab = LeafSpine(leaf_ports=2, spines=3, seed=5)
    m = cluster("pascal-pcie-4gpu", 6, "25gbe-roce", fabric=fab)
    assert _leaves(m) == [0, 0, 1, 1, 2, 2] and m.rule == "ecmp"
    g = lambda host: m.gpus[4 * host]                                         # noqa: E731
    assert _network_hops(m, g(0), g(1)) == [("host0:nic0", "leaf0"), ("host1:nic0", "leaf0")]
    hops = _network_hops(m, g(1), g(4))
    spine = zlib.crc32(b"5:1:4") % 3                       # CRC-32 of (seed, src port, dst port)
    assert hops == [("host1:nic0", "leaf0"), ("leaf0", f"spine{spine}"),
                    ("leaf2", f"spine{spine}"), ("host4:nic0", "leaf2")]
    ib = cluster("pascal-pcie-4gpu", 6, "edr-ib", fabric=fab)
    assert ib.rule == "d-mod-k"
    assert _network_hops(ib, g(1), g(4))[1] == ("leaf0", f"spine{4 % 3}")   # destination mod k


def test_uplinks_carry_ports_times_rate_over_spines_times_oversubscription():
    fab = LeafSpine(leaf_ports=16, spines=4, oversubscription=2)
    m = cluster("dgx-a100", 5, "hdr-ib", fabric=fab)
    assert _leaves(m) == [0, 0, 1, 1, 2]                     # 8 NICs a host, all on one leaf
    assert {l.bandwidth for row in m.spine_links for l in row} == {16 * m.network.bandwidth / 8}
    assert len(m.spine_links) == 3 and all(len(row) == 4 for row in m.spine_links)


def test_scattered_placement_is_seeded_and_fills_no_leaf_beyond_its_ports():
    fab = LeafSpine(leaf_ports=4, spines=2, placement="scattered", seed=3)
    a, b = fab.leaves(30, 1), fab.leaves(30, 1)
    assert a == b and a != sorted(a)
    assert max(a.count(j) for j in set(a)) <= 4
    assert LeafSpine(4, 2, placement="scattered", seed=4).leaves(30, 1) != a


@pytest.mark.parametrize("network", ["25gbe-roce", "edr-ib"])
def test_a_packed_ring_on_a_non_blocking_fabric_costs_what_one_switch_does(network):
    one = _ring_seconds(cluster("pascal-pcie-4gpu", 12, network))
    fab = _ring_seconds(cluster("pascal-pcie-4gpu", 12, network, fabric=LeafSpine(4, 4)))
    assert fab == pytest.approx(one, rel=1e-9)


def _most_flows_on_an_uplink(m):
    """Counted here from the rule itself: the ring's host-to-host flows per uplink direction."""
    load = {}
    hosts = len(_leaves(m))
    for h in range(hosts):
        d = (h + 1) % hosts
        if _leaves(m)[h] != _leaves(m)[d]:
            k = zlib.crc32(f"{m.fabric.seed}:{h}:{d}".encode()) % m.fabric.spines
            for key in ((_leaves(m)[h], k, "up"), (_leaves(m)[d], k, "down")):
                load[key] = load.get(key, 0) + 1
    return max(load.values())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ecmp_collisions_slow_a_scattered_ring_as_the_closed_form_says(seed):
    # uplink = 8 x rate / (4 x 2) = one NIC's rate: k flows on one uplink get rate / k each
    fab = LeafSpine(leaf_ports=8, spines=4, oversubscription=2, placement="scattered", seed=seed)
    m = cluster("pascal-pcie-4gpu", 32, "25gbe-roce", fabric=fab)
    worst = _most_flows_on_an_uplink(m)
    assert worst >= 2                                   # the seeds do collide
    free = _ring_seconds(cluster("pascal-pcie-4gpu", 32, "25gbe-roce"))
    assert _ring_seconds(m) / free == pytest.approx(worst, rel=0.03)


def _shift_seconds(machine, shift):
    """Every host's first GPU sends BIG bytes to the host ``shift`` further on, all at once."""
    from sim.des import Simulator
    hosts = len(_leaves(machine)) if machine.fabric else len(machine.uplink)
    firsts = [machine.gpus[4 * h].name for h in range(hosts)]
    sim = Simulator(machine)
    sim.transfers([(firsts[h], firsts[(h + shift) % hosts], BIG) for h in range(hosts)])
    sim.run()
    return sim.now


def test_d_mod_k_keeps_a_shift_permutation_non_blocking_where_ecmp_collides():
    """Zahavi 2010: destination-mod-k routing gives a shift by a leaf's width distinct spines."""
    free = _shift_seconds(cluster("pascal-pcie-4gpu", 16, "25gbe-roce"), 4)
    dmodk = cluster("pascal-pcie-4gpu", 16, "25gbe-roce", fabric=LeafSpine(4, 4, routing="d-mod-k"))
    for leaf in range(4):
        spines = {dmodk.route(dmodk.gpus[4 * h], dmodk.gpus[4 * (h + 4) % 64])[2][0].b
                  for h in range(4 * leaf, 4 * leaf + 4)}
        assert len(spines) == 4
    assert _shift_seconds(dmodk, 4) == pytest.approx(free, rel=1e-9)
    ecmp = cluster("pascal-pcie-4gpu", 16, "25gbe-roce", fabric=LeafSpine(4, 4, routing="ecmp"))
    assert _shift_seconds(ecmp, 4) >= 1.9 * free


@pytest.mark.parametrize("kwargs, word", [
    ({"leaf_ports": 0, "spines": 2}, "leaf_ports"),
    ({"leaf_ports": 4, "spines": 2.5}, "spines"),
    ({"leaf_ports": 4, "spines": 2, "oversubscription": 0.5}, "oversubscription"),
    ({"leaf_ports": 4, "spines": 2, "routing": "random"}, "routing"),
    ({"leaf_ports": 4, "spines": 2, "placement": "rack"}, "placement"),
])
def test_bad_fabrics_name_the_field(kwargs, word):
    with pytest.raises(ValueError, match=word) as err:
        LeafSpine(**kwargs)
    assert "\n" not in str(err.value)


def test_a_leaf_smaller_than_a_host_and_a_wrong_fabric_say_so():
    with pytest.raises(ValueError, match="leaf_ports of at least 8"):
        cluster("dgx-a100", 2, fabric=LeafSpine(leaf_ports=4, spines=2))
    with pytest.raises(ValueError, match="LeafSpine"):
        cluster("dgx-a100", 2, fabric="leaf-spine")


FILE = """
[gpu]
model = "P100-PCIe-16GB"
count = 4
[network]
name = "25gbe-roce"
[fabric]
"""


def test_a_machine_file_gives_the_fabric(tmp_path):
    path = tmp_path / "node.toml"
    path.write_text(FILE + 'leaf_ports = 8\nspines = 4\nplacement = "scattered"\nseed = 2\n', "utf-8")
    spec = read_machine_file(path)
    assert spec.fabric == LeafSpine(8, 4, placement="scattered", seed=2)
    m = cluster(spec, 10)
    assert m.fabric == spec.fabric and len(set(_leaves(m))) >= 2


@pytest.mark.parametrize("body, field", [
    ("spines = 4\n", "fabric.leaf_ports"),
    ("leaf_ports = 8\n", "fabric.spines"),
    ("leaf_ports = 8\nspines = 4\noversubscription = 0.5\n", "fabric.oversubscription"),
    ('leaf_ports = 8\nspines = 4\nrouting = "hash"\n', "fabric.routing"),
    ('leaf_ports = 8\nspines = 4\nplacement = "random"\n', "fabric.placement"),
    ("leaf_ports = 8\nspines = 4\nuplinks = 2\n", "fabric.uplinks"),
    ("leaf_ports = 8.5\nspines = 4\n", "fabric.leaf_ports"),
])
def test_fabric_mistakes_in_a_file_are_one_line_naming_the_field(tmp_path, body, field):
    path = tmp_path / "node.toml"
    path.write_text(FILE + body, "utf-8")
    with pytest.raises(ValueError) as err:
        read_machine_file(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(f"node.toml: {field}: ")
