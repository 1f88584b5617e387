"""The Pascal-era machines of well-known scaling benchmarks, from their vendors' descriptions.

* ``dgx1-p100``: NVIDIA DGX-1 (2016) as in TensorFlow's published DGX-1 benchmarks.
* ``pascal-pcie-4gpu``: a server of 4 Tesla P100 PCIe, as in the Horovod paper (Sergeev & Del
  Balso, arXiv 1802.05799, 2018: "servers with 4 Pascal GPUs each connected by RoCE-capable
  25 Gbit/s network").
* ``big-basin``: Facebook's Big Basin, the server of "Accurate, Large Minibatch SGD: Training
  ImageNet in 1 Hour" (Goyal et al., arXiv 1706.02677, §5: 8 Tesla P100 with NVLink, one
  Mellanox ConnectX-4 50 Gbit Ethernet card per server).

Link numbers as in ``sim.hardware.links``: NCCL's modelled bandwidths (collectives.md §3.5:
NVLink sm60 18 GB/s per link, PCIe Gen3 x16 12 GB/s, Broadwell QPI 6 GB/s) and per-hop latencies
(§3.3). Devices: NVIDIA's P100 data sheet (``sim.hardware.devices``).
"""
from __future__ import annotations

from sim.hardware import devices as D
from sim.hardware import links as L
from sim.hardware.cube_mesh import P100_LINKS, cube_mesh_node
from sim.hardware.machine import Machine

NVLINK_P100 = 18.0 * L.GB      # NCCL sm60 per link (§3.5); line rate 20 GB/s (§4), 4 links per P100


def _p100_board(m: Machine, nics: int) -> None:
    """8 P100 SXM2 on the cube-mesh, 2 Broadwell sockets, ``nics`` NICs (``sim.hardware.cube_mesh``)."""
    cube_mesh_node(m, D.XEON_E5_2698V4, D.P100_SXM2, P100_LINKS, NVLINK_P100, nics)


def dgx1_p100() -> Machine:
    """NVIDIA DGX-1 (P100): 8 Tesla P100 SXM2 on the NVLink 1 hybrid cube-mesh (collectives.md §4),
    one NVLink (18 GB/s, NCCL sm60, §3.5) per edge; 2 Xeon E5-2698 v4 joined by QPI (6 GB/s);
    4 PCIe Gen3 switches, each with 2 GPUs and one EDR InfiniBand NIC (100 Gb/s, §4; NVIDIA DGX-1
    data sheet: "4x IB EDR"). On a cluster its network defaults to ``edr-ib``."""
    m = Machine("dgx1-p100", job="localhost", description="8x P100-SXM2, NVLink 1 hybrid cube-mesh")
    _p100_board(m, nics=4)
    return m


def big_basin() -> Machine:
    """Facebook Big Basin: 8 Tesla P100 SXM2 on the same NVLink hybrid cube-mesh as the DGX-1
    (Facebook engineering, "Introducing Big Basin", 2017; Goyal et al. 2017 §5), PCIe Gen3
    switches to two Broadwell sockets, and ONE 50 GbE NIC (Mellanox ConnectX-4, Goyal et al. §5)
    on the first switch. On a cluster its network defaults to ``50gbe`` (TCP, §4 line rate)."""
    m = Machine("big-basin", job="localhost", description="8x P100-SXM2, NVLink cube-mesh, 1x 50 GbE")
    _p100_board(m, nics=1)
    return m


def pascal_pcie_4gpu() -> Machine:
    """A server of 4 Tesla P100 PCIe (NVIDIA P100 data sheet, PCIe column): two PCIe Gen3 x16
    switches with 2 GPUs each (12 GB/s, NCCL model, collectives.md §3.5) under one Broadwell
    socket, no NVLink. It has no NIC of its own: on a cluster, ``sim.hardware.node_clusters`` gives it
    one on the CPU's PCIe root whose speed is the ``network`` (default ``25gbe-roce``, the
    Horovod paper's 25 Gbit/s RoCE)."""
    m = Machine("pascal-pcie-4gpu", job="localhost", description="4x P100-PCIe on PCIe Gen3 switches")
    cpu = m.add_device("CPU", D.XEON_E5_2698V4)
    for k in range(2):
        sw = m.add_node(f"pcie-switch{k}", "switch", host=0)
        m.connect(sw, cpu, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
        for _ in range(2):
            m.connect(m.add_device("GPU", D.P100_PCIE), sw, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
    return m
