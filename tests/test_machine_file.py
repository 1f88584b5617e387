"""Machine files (sim.hardware.machine_file): the presets are such files, a learner's own node
builds and scales, and every mistake is one line naming the field (CLIs: exit 2)."""
import json
import subprocess
import sys

import pytest

from sim.hardware import cluster, preset, read_machine_file
from sim.hardware.machine_file import DATA, preset_file

GOOD = """
name = "my-box"
[gpu]
model = "A100-SXM4-40GB"
count = 4
[node]
topology = "pcie-switch"
switches = 2
pcie_gbs = 24
[network]
name = "100gbe"
"""


def _file(tmp_path, text, name="node.toml"):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def test_every_node_preset_is_a_machine_file_read_by_the_same_reader():
    from sim.hardware.presets import NODE_FILES
    assert sorted(p.stem for p in (DATA / "machines").glob("*.toml")) == sorted(NODE_FILES)
    for name in NODE_FILES:
        spec = preset_file(name)
        m = preset(name)
        assert [d.model for d in m.gpus] == [spec.gpu.model] * spec.count
        assert len(m.links) == len(spec.build().links)


def test_the_p100_cube_mesh_is_two_quads_plus_k_to_k_plus_4():
    pairs = {(a, b) for a, b, _ in preset_file("dgx1-p100").node["nvlink_pairs"]}
    rule = {(a, b) for q in (0, 4) for a in range(q, q + 4) for b in range(a + 1, q + 4)}
    assert pairs == rule | {(k, k + 4) for k in range(4)}


def test_a_learners_node_builds_clusters_and_scales(tmp_path):
    spec = read_machine_file(_file(tmp_path, GOOD))
    m = spec.build()
    assert len(m.gpus) == 4 and m.gpus[0].tensor_dtypes == ("tfloat32", "float16", "bfloat16")
    big = cluster(spec, 3)
    assert len(big.gpus) == 12 and big.network.name == "100gbe"
    from sim.scaleout import scale
    rows = scale("resnet50", spec, nodes=[1, 2], precision="mixed_float16")
    assert rows[1]["devices"] == 8 and 0 < rows[1]["efficiency"] <= 1


def test_a_gpu_of_ones_own_numbers_and_json(tmp_path):
    data = {"gpu": {"model": "My-GPU", "count": 2, "peak_tflops": {"float32": 10, "float16": 80},
                    "tensor": ["float16"], "memory_gib": 24, "memory_gbs": 600},
            "network": {"name": "lab", "line_rate_gbps": 100, "transport": "tcp"}}
    spec = read_machine_file(_file(tmp_path, json.dumps(data), "node.json"))
    gpu = spec.build().gpus[0]
    assert gpu.peak_flops == {"float32": 10e12, "float16": 80e12} and gpu.memory_bandwidth == 600e9
    assert spec.network.transport == "tcp" and spec.network.line_rate == 12.5e9


@pytest.mark.parametrize("text, field", [
    ('[gpu]\nmodel = "A100-SXM4-40GB"\ncount = 0\n', "gpu.count"),
    ('[gpu]\nmodel = "A200"\n', "gpu.model"),
    ('[gpu]\nmodel = "T4"\nspeed = 3\n', "gpu.speed"),
    ('[gpu]\npeak_tflops = { float32 = -1 }\nmemory_gib = 1\nmemory_gbs = 2\n', "gpu.peak_tflops.float32"),
    ('[gpu]\npeak_tflops = { float32 = 1 }\nmemory_gib = 1\n', "gpu.memory_gbs"),
    ('[gpu]\nmodel = "T4"\ntensor = ["fp8"]\n', "gpu.tensor"),
    ('[gpu]\nmodel = "T4"\n[node]\ntopology = "mesh"\n', "node.topology"),
    ('[gpu]\nmodel = "T4"\ncount = 4\n[node]\ntopology = "cube-mesh"\n', "gpu.count"),
    ('[gpu]\nmodel = "T4"\n[node]\ntopology = "pcie-switch"\nnics = 2\n', "node.nics"),
    ('[gpu]\nmodel = "T4"\n[network]\nname = "carrier-pigeon"\n', "network.name"),
    ('[gpu]\nmodel = "T4"\n[network]\nline_rate_gbps = 100\ntransport = "udp"\n', "network.transport"),
    ('gpu = 3\n', "gpu"),
    ('[node]\ntopology = "nvswitch"\n', "gpu"),
    ('[gpu\n', "-"),
])
def test_every_mistake_is_one_line_naming_the_field(tmp_path, text, field):
    with pytest.raises(ValueError) as err:
        read_machine_file(_file(tmp_path, text))
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"node.toml: {field}: ")


@pytest.mark.parametrize("command", ["scale", "plan"])
def test_the_clis_take_a_machine_file_and_refuse_a_bad_one_in_one_line(tmp_path, command):
    good, bad = _file(tmp_path, GOOD), _file(tmp_path, '[gpu]\nmodel = "A200"\n', "bad.toml")
    run = lambda *a: subprocess.run([sys.executable, "-m", "sim", command, *a], capture_output=True,  # noqa: E731
                                    text=True, timeout=300)
    ok = run("--machine-file", str(good), "--nodes", "1", "--precision", "mixed_float16", "--json")
    assert ok.returncode == 0, ok.stderr
    assert "my-box" in ok.stdout or command == "scale"
    for args, word in ((("--machine-file", str(bad)), "gpu.model"),
                       (("--machine-file", str(tmp_path / "none.toml")), "none.toml"),
                       (("--precision", "fp8"), "fp8")):
        out = run(*args)
        assert out.returncode == 2 and word in out.stderr
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_the_socket_path_caps_a_tcp_nic_at_threads_times_one_stream(tmp_path):
    """A NIC carries min(line x fraction, threads x single stream) (sim/hardware/networks.py)."""
    from sim.hardware.networks import TCP_FRACTION, network
    text = GOOD.replace('name = "100gbe"', 'name = "100gbe"\nsingle_stream_gbps = 30\nsocket_threads = 2')
    net = read_machine_file(_file(tmp_path, text)).network
    assert net.bandwidth == pytest.approx(2 * 30e9 / 8) and net.cpu_bound
    assert net.line_rate == network("100gbe").line_rate
    wide = network("100gbe").with_socket_path(60, 2)             # 120 Gb/s of sockets: the wire wins
    assert wide.bandwidth == pytest.approx(12.5e9 * TCP_FRACTION) and not wide.cpu_bound
    assert network("100gbe").bandwidth == pytest.approx(12.5e9 * TCP_FRACTION)   # default: no cap
    for spec, want in ((text, 60e9 / 8), (GOOD, 12.5e9 * TCP_FRACTION)):     # every NIC's link
        links = [link for host in cluster(read_machine_file(_file(tmp_path, spec)), 2).uplink
                 for link in host.values()]
        assert links and all(link.bandwidth == pytest.approx(want) for link in links)


def test_a_capped_socket_path_slows_a_bandwidth_bound_run():
    """VGG-16 over 25 GbE: 10 Gb/s per connection makes the multi-node step longer, one node not."""
    from sim.hardware.networks import network
    from sim.scaleout import scale
    kw = dict(machine="pascal-pcie-4gpu", nodes=[1, 4], overlap=False)
    wire = scale("vgg16", network=network("25gbe"), **kw)
    cpu = scale("vgg16", network=network("25gbe").with_socket_path(10), **kw)
    assert cpu[0]["step_time_ms"] == pytest.approx(wire[0]["step_time_ms"])
    assert cpu[1]["step_time_ms"] > 1.3 * wire[1]["step_time_ms"]
    assert any(key == "socket_path" for key, _ in cpu[1]["mechanisms"])


@pytest.mark.parametrize("extra, field", [
    ("single_stream_gbps = 0", "network.single_stream_gbps"),
    ("socket_threads = 2", "network.single_stream_gbps"),
    ("single_stream_gbps = 20\nsocket_threads = 1.5", "network.socket_threads"),
    ("single_stream_gbps = 20\nsocket_threads = 17", "network.socket_threads"),
])
def test_socket_path_mistakes_name_the_field(tmp_path, extra, field):
    text = GOOD.replace('name = "100gbe"', f'name = "100gbe"\n{extra}')
    with pytest.raises(ValueError) as err:
        read_machine_file(_file(tmp_path, text))
    assert "\n" not in str(err.value) and str(err.value).startswith(f"node.toml: {field}: ")


def test_rdma_has_no_socket_path(tmp_path):
    text = GOOD.replace('name = "100gbe"', 'name = "hdr-ib"\nsingle_stream_gbps = 20')
    with pytest.raises(ValueError, match=r"^node.toml: network.single_stream_gbps: .*tcp"):
        read_machine_file(_file(tmp_path, text))
