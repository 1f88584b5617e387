"""Rail-optimised leaf-spine fabrics (``LeafSpine(wiring="rail")``, sim/hardware/leaf_spine.py):
NIC k of every host on rail k's leaves, flows leaving by the destination's rail (directly under a
shared PCIe switch, else through NCCL's PXN over NVLink), and what that saves NCCL's ring.

The closed form: on a rail-wired fabric whose rails each fit under one leaf, a multi-channel ring
between hosts never reaches a spine, so however thin the uplinks it costs what one non-blocking
switch does (but for the latency of the extra NVSwitch hop). Wired by host, the same ring sends its
8 channels up ``spines`` uplinks at every leaf boundary: d-mod-k puts 8 / spines of them on each.
"""
import pytest

from sim.collectives import build
from sim.collectives.replay import replay
from sim.hardware import LeafSpine, cluster
from sim.hardware.machine_file import read_machine_file
from sim.scaleout import scale
from sim.scaleout.mechanisms import describe

NBYTES = 2**28


def _ring_seconds(machine):
    schedule = build("ring", len(machine.gpus), NBYTES // 4, machine=machine, ranks=machine.gpus)
    assert schedule.info["channels"] == 8
    return replay(schedule, machine, NBYTES)


def _hops(machine, src, dst):
    return [(link.a.rsplit("/", 1)[-1], link.b.rsplit("/", 1)[-1]) for link, _ in machine.route(src, dst)]


def test_rails_put_nic_k_of_every_host_on_rail_k_in_the_hosts_slot():
    rails = LeafSpine(leaf_ports=4, spines=2, wiring="rail")
    assert rails.port_leaves(6, 8) == [[2 * k + h // 4 for k in range(8)] for h in range(6)]
    scattered = LeafSpine(4, 2, wiring="rail", placement="scattered", seed=3)
    groups = scattered.leaves(6, 8)
    assert scattered.port_leaves(6, 8) == [[2 * k + g for k in range(8)] for g in groups]
    assert LeafSpine(4, 2).port_leaves(3, 2) == [[0, 0], [0, 0], [1, 1]]     # by host


def test_a_leaf_narrower_than_a_host_is_fine_on_rails():
    m = cluster("dgx-a100", 2, fabric=LeafSpine(leaf_ports=2, spines=2, wiring="rail"))
    assert m.port_leaf == [list(range(8))] * 2 and len(m.spine_links) == 8
    with pytest.raises(ValueError, match="leaf_ports of at least 8"):
        cluster("dgx-a100", 2, fabric=LeafSpine(leaf_ports=2, spines=2))


def test_a_flow_leaves_by_its_destinations_rail():
    m = cluster("dgx-a100", 2, "hdr-ib", fabric=LeafSpine(16, 2, wiring="rail"))
    g = m.gpus
    # GPU 7 to the other host's GPU 0 (rail 0): over NVSwitch to GPU 0, out by its NIC (PXN)
    assert _hops(m, g[7], g[8]) == [
        ("device:GPU:7", "host0:nvswitch"), ("device:GPU:0", "host0:nvswitch"),
        ("device:GPU:0", "host0:nic0"), ("host0:nic0", "leaf0"), ("host1:nic0", "leaf0"),
        ("device:GPU:0", "host1:nic0")]
    # GPU 1 shares NIC 0's PCIe switch: straight out by NIC 0, no NVLink
    hops = _hops(m, g[1], g[8])
    assert ("host0:nic0", "leaf0") in hops and not any("nvswitch" in a + b for a, b in hops)
    assert not any("spine" in a + b for a, b in hops)
    # wired by host, GPU 7 leaves by its own NIC
    host = cluster("dgx-a100", 2, "hdr-ib", fabric=LeafSpine(16, 2))
    assert _hops(host, host.gpus[7], host.gpus[8])[1] == ("host0:nic7", "leaf0")


@pytest.mark.parametrize("placement", ["packed", "scattered"])
def test_a_rail_wired_ring_never_reaches_the_thin_spines(placement):
    one = _ring_seconds(cluster("dgx-a100", 8, "hdr-ib"))
    fab = dict(leaf_ports=16, spines=4, oversubscription=4, placement=placement, seed=1)
    rails = cluster("dgx-a100", 8, "hdr-ib", fabric=LeafSpine(wiring="rail", **fab))
    assert _ring_seconds(rails) == pytest.approx(one, rel=1e-3)
    # by host: 2 hosts a leaf, uplink = 16 x rate / (4 x 4) = one NIC's rate, and d-mod-k puts
    # 8 / 4 = 2 of the 8 channels on each: half a NIC's rate where the ring crosses leaves
    host = cluster("dgx-a100", 8, "hdr-ib", fabric=LeafSpine(routing="d-mod-k", **fab))
    assert _ring_seconds(host) >= 1.8 * one


def test_without_one_nvlink_to_the_rails_gpu_a_flow_keeps_its_own_nic_and_crosses_rails():
    """DGX-1: NIC 2 sits beside GPUs 4 and 5, NIC 3 beside 6 and 7; GPU 0 has an NVLink to 4 but
    to neither 6 nor 7, and NCCL's PXN needs one NVLink (no GPU in between)."""
    m = cluster("dgx1-p100", 2, "edr-ib", fabric=LeafSpine(4, 2, wiring="rail"))
    g = m.gpus
    to_rail2 = _hops(m, g[0], g[8 + 4])
    assert to_rail2[:4] == [("device:GPU:0", "device:GPU:4"), ("device:GPU:4", "host0:pcie-switch2"),
                            ("host0:nic2", "host0:pcie-switch2"), ("host0:nic2", "leaf2")]
    assert not any("spine" in a + b for a, b in to_rail2)
    to_rail3 = _hops(m, g[0], g[8 + 6])
    assert ("host0:nic0", "leaf0") in to_rail3 and any("spine" in a + b for a, b in to_rail3)


def test_the_mechanisms_name_the_rails():
    fab = LeafSpine(16, 4, wiring="rail")
    row = scale("resnet50", "dgx-a100", nodes=(2,), network="hdr-ib", fabric=fab)[0]
    assert "rail-optimised (8 rails" in describe(row["mechanisms"])


@pytest.mark.parametrize("bad", ["racks", "RAIL-OPTIMISED"])
def test_a_wrong_wiring_names_the_field(bad, tmp_path):
    with pytest.raises(ValueError, match="wiring") as err:
        LeafSpine(4, 2, wiring=bad)
    assert "\n" not in str(err.value)
    path = tmp_path / "node.toml"
    path.write_text('[gpu]\nmodel = "P100-PCIe-16GB"\ncount = 4\n[network]\nname = "25gbe-roce"\n'
                    f'[fabric]\nleaf_ports = 4\nspines = 2\nwiring = "{bad}"\n', "utf-8")
    with pytest.raises(ValueError, match="fabric.wiring"):
        read_machine_file(path)
