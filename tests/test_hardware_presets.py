"""Every preset is connected and its numbers are the ones its docstring cites."""
import pytest

from sim.hardware import links as L
from sim.hardware import preset, preset_names

SMALL = {"dgx-a100-cluster": {"nodes": 3}, "dgx-h100-cluster": {"nodes": 2},
         "cpu-cluster": {"nodes": 3}, "tpu-v4": {"shape": (4, 4, 2)}}


@pytest.mark.parametrize("name", preset_names())
def test_preset_is_connected_and_documented(name):
    m = preset(name, **SMALL.get(name, {}))
    m.check_connected()
    assert m.devices and m.links
    from sim.hardware import presets
    assert "§" in presets.PRESETS[name].__doc__ or "docs" in presets.PRESETS[name].__doc__


def _links_of(m, device, kind):
    return [l for l in m.links if device.name in (l.a, l.b) and l.kind == kind]


def test_workstation_shares_one_pcie_switch():
    m = preset("workstation-4gpu")
    gpus = m.gpus
    assert len(gpus) == 4 and all(g.model == "V100-PCIe-16GB" for g in gpus)
    assert gpus[0].peak_flops == {"float64": 7e12, "float32": 14e12, "float16": 112e12}
    assert gpus[0].memory_bandwidth == 900e9
    uplinks = {m.route(g, "/cpu:0")[-1][0] for g in gpus}
    assert len(uplinks) == 1                       # every GPU crosses the same uplink
    (uplink,) = uplinks
    assert uplink.bandwidth == 12e9 and uplink.kind == "pcie"   # NCCL PCIe Gen3 x16, §3.5
    assert m.route_latency("/gpu:0", "/gpu:3") == pytest.approx(1e-6)   # NCCL PCIe hop, §3.3


def test_dgx1_hybrid_cube_mesh():
    m = preset("dgx1-v100")
    gpus = m.gpus
    for g in gpus:
        nv = _links_of(m, g, "nvlink")
        assert sum(l.bandwidth for l in nv) == pytest.approx(6 * 20e9)   # 6 links x 20 GB/s
        assert len(nv) == 4                                              # 4 neighbours
        assert g.peak_flops["float32"] == 15.7e12 and g.peak_flops["float16"] == 125e12
    # GPU0 has a double link to GPU3 and GPU4, none to GPU5 (collectives.md §4 matrix)
    assert m.route_bandwidth("/gpu:0", "/gpu:3") == 40e9
    assert m.route_bandwidth("/gpu:0", "/gpu:4") == 40e9
    assert all(l.kind != "nvlink" for l, _ in m.route("/gpu:0", "/gpu:5"))


@pytest.mark.parametrize("name,per_gpu,fp32,bf16,hbm", [
    ("dgx-a100", 12 * 20e9, 19.5e12, 312e12, 1555e9),
    ("dgx-h100", 18 * 20.6e9, 67e12, 989e12, 3.35e12)])
def test_dgx_nvswitch(name, per_gpu, fp32, bf16, hbm):
    m = preset(name)
    assert len(m.gpus) == 8
    for g in m.gpus:
        (nvs,) = _links_of(m, g, "nvswitch")
        assert nvs.bandwidth == pytest.approx(per_gpu)
        assert (g.peak_flops["float32"], g.peak_flops["bfloat16"], g.memory_bandwidth) == \
            (fp32, bf16, hbm)
    assert m.route_latency("/gpu:0", "/gpu:7") == pytest.approx(0.6e-6)
    assert len(m.nics(0)) == 8


@pytest.mark.parametrize("name,nic", [("dgx-a100-cluster", 25e9), ("dgx-h100-cluster", 50e9)])
def test_cluster_nic_cap(name, nic):
    m = preset(name, nodes=3)
    assert m.hosts == [0, 1, 2] and len(m.gpus) == 24
    for host in m.hosts:
        nics = m.nics(host)
        assert len(nics) == 8
        wire = [l for l in m.links if l.kind == "infiniband" and (l.a in nics or l.b in nics)]
        assert len(wire) == 8 and sum(l.bandwidth for l in wire) == pytest.approx(8 * nic)
    # rail-aligned: GPU k leaves its node through its own NIC k
    hops = m.route("/job:worker/task:0/device:GPU:5", "/job:worker/task:2/device:GPU:1")
    assert hops[0][0].b == "host0:nic5" or hops[0][0].a == "host0:nic5"
    assert sum(l.latency for l, _ in hops) == pytest.approx(2 * 0.5e-6 + 2.7e-6)


@pytest.mark.parametrize("gbe,rate", [(10, 1.25e9), (25, 3.125e9)])
def test_cpu_cluster_ethernet(gbe, rate):
    m = preset("cpu-cluster", nodes=4, gbe=gbe)
    assert [d.name for d in m.devices][1] == "/job:worker/replica:0/task:1/device:CPU:0"
    assert m.route_bandwidth("/job:worker/task:0/cpu:0", "/job:worker/task:3/cpu:0") == rate
    assert m.devices[0].peak_flops["float32"] == pytest.approx(40 * 2.3e9 * 64)


def test_cpu_cluster_rejects_other_speeds():
    with pytest.raises(ValueError, match="10, 25"):
        preset("cpu-cluster", gbe=40)


def test_tpu_v3_8():
    m = preset("tpu-v3-8")
    tpus = m.devices_of("TPU")
    assert len(tpus) == 8 and tpus[7].name == "/job:worker/replica:0/task:0/device:TPU:7"
    assert sum(t.peak_flops["bfloat16"] for t in tpus) == pytest.approx(4 * 123e12)
    ici = [l for l in m.links if l.kind == "ici"]
    assert len(ici) == 4 and all(l.bandwidth == 2 * 82e9 for l in ici)
    # cores of chips 0 and 3 (diagonal) go over two ICI hops, never through the host
    kinds = [l.kind for l, _ in m.route("TPU:0", "TPU:7")]
    assert kinds.count("ici") == 2 and "pcie" not in kinds


@pytest.mark.parametrize("shape,links_per_chip", [((2, 2, 2), 3), ((4, 4, 4), 6)])
def test_tpu_v4_torus(shape, links_per_chip):
    m = preset("tpu-v4", shape=shape)
    chips = m.devices_of("TPU")
    assert len(chips) == shape[0] * shape[1] * shape[2]
    assert m.hosts == list(range(len(chips) // 4))
    for c in chips:
        assert c.peak_flops["bfloat16"] == 275e12
        assert len(_links_of(m, c, "ici")) == links_per_chip
    assert all(l.bandwidth == L.ICI_V4 for l in m.links if l.kind == "ici")


@pytest.mark.parametrize("kw", [{"nodes": 0}, {"nodes": 1.5}])
def test_bad_node_count(kw):
    with pytest.raises(ValueError, match="nodes"):
        preset("dgx-a100-cluster", **kw)
