"""sim.hardware: building machines, naming devices, routing, and the errors a learner meets."""
import math

import pytest
from hypothesis import given, settings, strategies as st

from sim.hardware import Machine, preset, preset_names
from sim.hardware.devices import V100_PCIE
from sim.hardware.links import Link


def two_gpus(bandwidth=12e9, latency=1e-6):
    m = Machine("pair")
    g0, g1 = m.add_device("GPU", V100_PCIE), m.add_device("GPU", V100_PCIE)
    m.connect(g0, g1, bandwidth=bandwidth, latency=latency, kind="pcie")
    return m, g0, g1


def test_a_user_machine_in_a_few_lines():
    m, g0, g1 = two_gpus()
    assert [d.name for d in m.devices] == ["/job:localhost/replica:0/task:0/device:GPU:0",
                                           "/job:localhost/replica:0/task:0/device:GPU:1"]
    assert g1.short_name == "/gpu:1" and g1.device_type == "GPU" and g1.host == 0
    assert g0.peak_flops["float32"] == 14e12 and g0.memory_bandwidth == 900e9
    [(link, direction)] = m.route("/gpu:0", "/gpu:1")
    assert (link.bandwidth, link.latency, direction) == (12e9, 1e-6, 0)
    [(_, back)] = m.route("/gpu:1", "/gpu:0")
    assert back == 1


@pytest.mark.parametrize("name", [
    "/job:localhost/replica:0/task:0/device:GPU:1", "/gpu:1", "GPU:1", "gpu:1",
    "/device:GPU:1", "/job:localhost/device:GPU:1", 2])
def test_device_names_follow_tensorflow(name):
    m = preset("workstation-4gpu")
    assert m.device(name).name == "/job:localhost/replica:0/task:0/device:GPU:1"


def test_cluster_names_carry_job_and_task():
    m = preset("dgx-a100-cluster", nodes=2)
    dev = m.device("/job:worker/replica:0/task:1/device:GPU:3")
    assert (dev.host, dev.index, dev.job) == (1, 3, "worker")
    assert m.device("/job:worker/task:1/device:GPU:3") is dev
    assert m.display_name(dev) == "/task:1/gpu:3"


def test_unknown_device_lists_known_names():
    m = preset("workstation-4gpu")
    with pytest.raises(ValueError, match=r"no device '/gpu:7'.*/gpu:0, /gpu:1, /gpu:2, /gpu:3"):
        m.device("/gpu:7")
    with pytest.raises(ValueError, match="no device"):
        m.device("banana")


def test_ambiguous_short_name_on_a_cluster_asks_for_the_task():
    with pytest.raises(ValueError, match="several devices.*task"):
        preset("cpu-cluster").device("/cpu:0")


@pytest.mark.parametrize("bandwidth", [0, -1e9, float("nan"), float("inf"), "12e9", None])
def test_bad_bandwidth_is_named(bandwidth):
    m = Machine("m")
    a, b = m.add_device("GPU"), m.add_device("GPU")
    with pytest.raises(ValueError, match="bandwidth must be a positive number"):
        m.connect(a, b, bandwidth=bandwidth, latency=1e-6)
    with pytest.raises(ValueError, match="bandwidth"):
        Link("a", "b", bandwidth, 0.0)


def test_negative_latency_is_named():
    with pytest.raises(ValueError, match="latency must be zero or a positive"):
        Link("a", "b", 1e9, -1e-6)


def test_route_between_disconnected_devices():
    m = Machine("islands")
    a, b, c = (m.add_device("GPU") for _ in range(3))
    m.connect(a, b, 1e9, 0.0)
    with pytest.raises(ValueError, match=r"No route from .*GPU:0 to .*GPU:2.*machine.connect"):
        m.route(a, c)
    with pytest.raises(ValueError, match="No route"):
        m.check_connected()


def test_unknown_preset_lists_known_ones():
    with pytest.raises(ValueError) as err:
        preset("dgx-9000")
    for name in preset_names():
        assert name in str(err.value)


def test_connect_to_a_missing_node_is_named():
    m = Machine("m")
    g = m.add_device("GPU")
    with pytest.raises(ValueError, match="has no node 'switch9'"):
        m.connect(g, "switch9", 1e9, 0.0)


def test_errors_speak_the_course_language():
    from sim import i18n
    before = i18n.get_language()
    try:
        i18n.set_language("zh")
        with pytest.raises(ValueError, match="带宽"):
            Link("a", "b", 0, 0.0)
        i18n.set_language("pt")
        with pytest.raises(ValueError, match="Predefinição"):
            preset("nope")
    finally:
        i18n.set_language(before)


def test_gpus_do_not_forward_traffic():
    # a - g1 - b: the only path passes through a GPU, which does not route
    m = Machine("m")
    a, g1, b = m.add_device("GPU"), m.add_device("GPU"), m.add_device("GPU")
    m.connect(a, g1, 1e9, 0.0)
    m.connect(g1, b, 1e9, 0.0)
    with pytest.raises(ValueError, match="No route"):
        m.route(a, b)
    sw = m.add_node("sw")
    m.connect(a, sw, 1e9, 0.0)
    m.connect(sw, b, 1e9, 0.0)
    assert [l.kind for l, _ in m.route(a, b)] == ["link", "link"]


def test_route_prefers_lower_latency():
    m = Machine("m")
    a, b = m.add_device("GPU"), m.add_device("GPU")
    s1, s2 = m.add_node("slow"), m.add_node("fast")
    m.connect(a, s1, 1e9, 5e-6); m.connect(s1, b, 1e9, 5e-6)
    m.connect(a, s2, 1e9, 1e-6); m.connect(s2, b, 1e9, 1e-6)
    assert m.route_latency(a, b) == pytest.approx(2e-6, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(1e6, 1e12), st.floats(0, 1e-3)), min_size=1, max_size=6))
def test_a_chain_routes_through_every_hop(hops):
    m = Machine("chain")
    nodes = [m.add_device("CPU")] + [m.add_node(f"sw{i}") for i in range(len(hops) - 1)] \
        + [m.add_device("CPU")]
    for (bw, lat), u, v in zip(hops, nodes, nodes[1:]):
        m.connect(u, v, bw, lat)
    route = m.route("CPU:0", "CPU:1")
    assert len(route) == len(hops)
    assert m.route_latency("CPU:0", "CPU:1") == pytest.approx(sum(l for _, l in hops), rel=1e-12)
    assert m.route_bandwidth("CPU:0", "CPU:1") == min(b for b, _ in hops)
    # the hops join end to end
    here = m.device("CPU:0").name
    for link, d in route:
        assert here == (link.a if d == 0 else link.b)
        here = link.other(here)
    assert here == m.device("CPU:1").name


@pytest.mark.parametrize("n,text", [(8, "8 B"), (1e3, "1 kB"), (12e3, "12 kB"), (1e6, "1 MB"),
                                    (1.5e9, "1.5 GB"), (4096, "4.1 kB"), (2**30, "1.07 GB"), (999, "999 B")])
def test_format_bytes(n, text):
    from sim.hardware.units import format_bytes
    assert format_bytes(n) == text
