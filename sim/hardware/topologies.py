"""The shapes a node's insides take, built from a machine file's numbers (``sim.hardware.machine_file``).

* ``pcie-switch``: GPUs spread evenly over ``switches`` PCIe switches under one CPU socket (the
  course's workstation: one switch, four V100-PCIe; the Horovod paper's server: two switches, two
  P100-PCIe each). Each switch reaches the CPU over one uplink its GPUs share.
* ``nvswitch``: DGX A100/H100: every GPU on one NVSwitch crossbar (``nvlinks`` x ``nvlink_gbs``),
  two GPUs per PCIe switch, two switches per CPU socket, one NIC per GPU (rail-aligned GPUDirect
  RDMA) when ``nics`` equals the GPU count.
* ``cube-mesh``: the DGX-1 board (``sim.hardware.cube_mesh``): eight SXM2 GPUs, NVLink edges
  ``nvlink_pairs`` = [GPU a, GPU b, links], NICs on the first PCIe switches.

Per-hop latencies are NCCL's (``sim.hardware.links``: PCIe 1 µs, NVLink 0.6 µs, collectives.md §3.3).
"""
from __future__ import annotations

from sim.hardware import links as L
from sim.hardware.cube_mesh import cube_mesh_node
from sim.hardware.machine import Machine

TOPOLOGIES = ("pcie-switch", "nvswitch", "cube-mesh")


def pcie_switch_node(m: Machine, cpu_spec, gpu_spec, count: int, switches: int, pcie: float,
                     uplink: float) -> None:
    cpu = m.add_device("CPU", cpu_spec)
    per = [count // switches + (1 if k < count % switches else 0) for k in range(switches)]
    for k, n in enumerate(per):
        sw = m.add_node("pcie-switch" if switches == 1 else f"pcie-switch{k}", "switch", host=0)
        m.connect(sw, cpu, uplink, L.PCIE_HOP / 2, "pcie")
        for _ in range(n):
            m.connect(m.add_device("GPU", gpu_spec), sw, pcie, L.PCIE_HOP / 2, "pcie")


def nvswitch_node(m: Machine, cpu_spec, gpu_spec, count: int, nvlink: float, pcie: float,
                  socket: float, nics: int, host: int = 0) -> None:
    """GPUs on an NVSwitch crossbar (``nvlink``: bytes/s per GPU), 2 per PCIe switch, 2 sockets."""
    p = f"host{host}:"
    cpu0 = m.add_device("CPU", cpu_spec, host=host)
    cpu1 = m.add_node(p + "cpu-socket1", "cpu-root", host=host)
    m.connect(cpu0, cpu1, socket, L.PCIE_HOP / 2, "socket")
    nvs = m.add_node(p + "nvswitch", "switch", host=host)
    n_switches = (count + 1) // 2
    switches = [m.add_node(p + f"pcie-switch{k}", "switch", host=host) for k in range(n_switches)]
    for k, sw in enumerate(switches):
        m.connect(sw, cpu0 if k < (n_switches + 1) // 2 else cpu1, pcie, L.PCIE_HOP / 2, "pcie")
    for k in range(count):
        g = m.add_device("GPU", gpu_spec, host=host)
        m.connect(g, nvs, nvlink, L.NVLINK_HOP / 2, "nvswitch")
        m.connect(g, switches[k // 2], pcie, L.PCIE_HOP / 2, "pcie")
        if nics:
            nic = m.add_node(p + f"nic{k}", "nic", host=host)
            m.connect(g, nic, pcie, L.PCIE_HOP / 2, "pcie")               # GPUDirect RDMA, rail k
            m.connect(nic, switches[k // 2], pcie, L.PCIE_HOP / 2, "pcie")  # the CPU's way out


def build(m: Machine, node: dict, cpu_spec, gpu_spec, count: int) -> None:
    """Adds the node described by ``node`` (a checked machine file's ``[node]`` table) to ``m``."""
    kind = node["topology"]
    pcie = node["pcie_gbs"] * L.GB
    if kind == "pcie-switch":
        pcie_switch_node(m, cpu_spec, gpu_spec, count, node["switches"], pcie,
                         node.get("uplink_gbs", node["pcie_gbs"]) * L.GB)
    elif kind == "nvswitch":
        nvswitch_node(m, cpu_spec, gpu_spec, count, node["nvlinks"] * node["nvlink_gbs"] * L.GB,
                      pcie, node["socket_gbs"] * L.GB, node["nics"])
    else:
        pairs = {(a, b): c for a, b, c in node["nvlink_pairs"]}
        cube_mesh_node(m, cpu_spec, gpu_spec, pairs, node["nvlink_gbs"] * L.GB, node["nics"],
                       socket=node["socket_gbs"] * L.GB, pcie=pcie)
