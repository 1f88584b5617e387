"""The DGX-1 board: 8 SXM2 GPUs on the NVLink hybrid cube-mesh (collectives.md §4).

Both DGX-1 generations (P100, V100) and Facebook's Big Basin share this board: GPU pairs share
a PCIe Gen3 switch, two switches per CPU socket, the sockets joined by QPI, NICs on the first
switches. They differ in GPUs, NVLink speed and how many links join each GPU pair:

* P100 (NVLink 1, 4 links per GPU): two fully connected quads plus k <-> k+4, one link per edge
  (``P100_LINKS``, generated, not typed);
* V100 (NVLink 2, 6 links per GPU): the DGX-1V matrix of ``nvidia-smi topo -m``, some edges
  doubled (``V100_LINKS``, rows sum to 6).
"""
from __future__ import annotations

from sim.hardware import links as L
from sim.hardware.machine import Machine

P100_LINKS = {**{(a, b): 1 for q in (0, 4) for a in range(q, q + 4) for b in range(a + 1, q + 4)},
              **{(k, k + 4): 1 for k in range(4)}}
V100_LINKS = {(0, 1): 1, (0, 2): 1, (0, 3): 2, (0, 4): 2, (1, 2): 2, (1, 3): 1, (1, 5): 2,
              (2, 3): 2, (2, 6): 1, (3, 7): 1, (4, 5): 1, (4, 6): 1, (4, 7): 2, (5, 6): 2,
              (5, 7): 1, (6, 7): 2}


def cube_mesh_node(m: Machine, cpu_spec, gpu_spec, nvlinks: dict, nvlink_bw: float,
                   nics: int) -> None:
    """Adds the board to ``m``: ``nvlinks`` maps a GPU pair to its number of links of
    ``nvlink_bw`` each; ``nics`` NICs sit on the first PCIe switches."""
    cpu0 = m.add_device("CPU", cpu_spec)
    cpu1 = m.add_node("cpu-socket1", "cpu-root", host=0)
    m.connect(cpu0, cpu1, L.QPI_BROADWELL, L.PCIE_HOP / 2, "qpi")
    gpus = [m.add_device("GPU", gpu_spec) for _ in range(8)]
    for k in range(4):
        sw = m.add_node(f"pcie-switch{k}", "switch", host=0)
        m.connect(sw, cpu0 if k < 2 else cpu1, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
        for g in gpus[2 * k:2 * k + 2]:
            m.connect(g, sw, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
        if k < nics:
            m.connect(m.add_node(f"nic{k}", "nic", host=0), sw, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
    for (a, b), count in nvlinks.items():
        m.connect(gpus[a], gpus[b], nvlink_bw, L.NVLINK_HOP, "nvlink", count=count)
