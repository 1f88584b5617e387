"""The DGX-1 board: 8 SXM2 GPUs on the NVLink hybrid cube-mesh (collectives.md §4).

Both DGX-1 generations (P100, V100) and Facebook's Big Basin share this board: GPU pairs share
a PCIe Gen3 switch, two switches per CPU socket, the sockets joined by QPI, NICs on the first
switches. They differ in GPUs, NVLink speed and how many links join each GPU pair:

* P100 (NVLink 1, 4 links per GPU): two fully connected quads plus k <-> k+4, one link per edge;
* V100 (NVLink 2, 6 links per GPU): the DGX-1V matrix of ``nvidia-smi topo -m``, some edges
  doubled (rows sum to 6).

The edges are the presets' ``nvlink_pairs`` (sim/hardware/data/machines/dgx1-*.toml).
"""
from __future__ import annotations

from sim.hardware import links as L
from sim.hardware.machine import Machine

def cube_mesh_node(m: Machine, cpu_spec, gpu_spec, nvlinks: dict, nvlink_bw: float,
                   nics: int, socket: float = L.QPI_BROADWELL, pcie: float = L.PCIE_GEN3_X16) -> None:
    """Adds the board to ``m``: ``nvlinks`` maps a GPU pair to its number of links of
    ``nvlink_bw`` each; ``nics`` NICs sit on the first PCIe switches."""
    cpu0 = m.add_device("CPU", cpu_spec)
    cpu1 = m.add_node("cpu-socket1", "cpu-root", host=0)
    m.connect(cpu0, cpu1, socket, L.PCIE_HOP / 2, "qpi")
    gpus = [m.add_device("GPU", gpu_spec) for _ in range(8)]
    for k in range(4):
        sw = m.add_node(f"pcie-switch{k}", "switch", host=0)
        m.connect(sw, cpu0 if k < 2 else cpu1, pcie, L.PCIE_HOP / 2, "pcie")
        for g in gpus[2 * k:2 * k + 2]:
            m.connect(g, sw, pcie, L.PCIE_HOP / 2, "pcie")
        if k < nics:
            m.connect(m.add_node(f"nic{k}", "nic", host=0), sw, pcie, L.PCIE_HOP / 2, "pcie")
    for (a, b), count in nvlinks.items():
        m.connect(gpus[a], gpus[b], nvlink_bw, L.NVLINK_HOP, "nvlink", count=count)
