"""The Pascal presets of the well-known scaling benchmarks: numbers as their docstrings cite."""
import pytest

from sim.hardware import cluster, preset
from sim.hardware import links as L


def _nvlinks(m, gpu):
    return [l for l in m.links if l.kind == "nvlink" and gpu.name in (l.a, l.b)]


@pytest.mark.parametrize("name,nics", [("dgx1-p100", 4), ("big-basin", 1)])
def test_cube_mesh_of_p100_sxm2(name, nics):
    m = preset(name)
    assert len(m.gpus) == 8 and all(g.model == "P100-SXM2-16GB" for g in m.gpus)
    assert m.gpus[0].peak_flops["float32"] == 10.6e12 and m.gpus[0].memory_bandwidth == 732e9
    assert all(len(_nvlinks(m, g)) == 4 for g in m.gpus)              # NVLink 1: 4 per P100
    assert all(l.bandwidth == 18e9 for l in m.links if l.kind == "nvlink")
    pairs = {frozenset((l.a, l.b)) for l in m.links if l.kind == "nvlink"}
    g = [d.name for d in m.gpus]
    assert frozenset((g[3], g[4])) not in pairs and frozenset((g[3], g[7])) in pairs
    assert len(m.nics(0)) == nics


def test_pascal_pcie_server_has_no_nvlink_and_takes_its_network_from_the_cluster():
    m = preset("pascal-pcie-4gpu")
    assert len(m.gpus) == 4 and all(g.model == "P100-PCIe-16GB" for g in m.gpus)
    assert m.gpus[0].peak_flops["float32"] == 9.3e12
    assert not [l for l in m.links if l.kind == "nvlink"] and not m.nics(0)
    c = cluster("pascal-pcie-4gpu", 2, "10gbe")
    assert len(c.nics(1)) == 1
    up = [l for l in c.links if l.b == c.switch or l.a == c.switch]
    assert len(up) == 2 and all(l.bandwidth == pytest.approx(L.ETH_10G * 1448 / 1538) for l in up)


@pytest.mark.parametrize("name,net", [("dgx1-p100", "edr-ib"), ("big-basin", "50gbe"),
                                      ("pascal-pcie-4gpu", "25gbe-roce")])
def test_default_network_of_each_node(name, net):
    assert net in cluster(name, 2).description
