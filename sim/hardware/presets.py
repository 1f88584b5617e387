"""Ready-made machines with cited numbers; ``preset("dgx-a100")`` builds one.

Device numbers: ``sim.hardware.devices`` (vendor data sheets). Link numbers:
``sim.hardware.links`` (NCCL's modelled bandwidths and per-hop latencies, collectives.md
§3.3-§3.5, and line rates from §4). Simplifications, stated once: the six (A100) or four (H100)
NVSwitch chips of a DGX are one non-blocking crossbar node; a cluster's InfiniBand fat tree is
one non-blocking switch node; in a DGX cluster GPU *k* reaches its own NIC *k* (rail-aligned
GPUDirect RDMA) over a PCIe link, so a node's network bandwidth is the sum of its NICs: the
per-node NIC cap that hierarchical all-reduce has to respect.
"""
from __future__ import annotations

import itertools

from sim.i18n import t
from sim.hardware import devices as D
from sim.hardware import links as L
from sim.hardware.machine import Machine

DEFAULT = "workstation-4gpu"

def _from_file(name: str):
    """The node preset ``name``, read from its machine file (data/machines/<name>.toml)."""
    def build(gpus: int | None = None) -> Machine:
        from sim.hardware.machine_file import preset_file
        if gpus is not None and (isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 0):
            raise ValueError(t("hardware.bad_gpus", value=gpus))   # 0: a machine without GPUs
        return preset_file(name).build(gpus)
    build.__name__ = name.replace("-", "_")
    build.__doc__ = _file_comment(name)
    return build


def _file_comment(name: str) -> str:
    """The leading comment of a preset's machine file: what it is and where its numbers come from."""
    from sim.hardware.machine_file import DATA
    lines = (DATA / "machines" / f"{name}.toml").read_text("utf-8").splitlines()
    text = [line[1:].strip() for line in lines if line.startswith("#")]
    return " ".join(text) + f" (data/machines/{name}.toml)"


# The single-node presets: machine files in the format a learner writes (docs/machine_files.md),
# read by the same reader (sim.hardware.machine_file), so there is one source of truth.
NODE_FILES = ("workstation-4gpu", "dgx1-v100", "dgx-a100", "dgx-h100", "dgx1-p100",
              "pascal-pcie-4gpu", "big-basin")
workstation_4gpu, dgx1_v100, dgx_a100, dgx_h100 = (_from_file(n) for n in NODE_FILES[:4])


def dgx_a100_cluster(nodes: int = 2) -> Machine:
    """``nodes`` DGX A100 on HDR InfiniBand: 8 x 25 GB/s = 200 GB/s per node (the NIC cap);
    2.7 µs per network hop (NCCL, collectives.md §3.3). ``cluster("dgx-a100", nodes, "hdr-ib")``."""
    from sim.hardware.node_clusters import cluster
    return cluster("dgx-a100", nodes, "hdr-ib", name="dgx-a100-cluster")


def dgx_h100_cluster(nodes: int = 2) -> Machine:
    """``nodes`` DGX H100 on NDR InfiniBand: 8 x 50 GB/s = 400 GB/s per node (the NIC cap;
    NDR line rate, collectives.md §4); 2.7 µs per network hop (§3.3).
    ``cluster("dgx-h100", nodes, "ndr-ib")``."""
    from sim.hardware.node_clusters import cluster
    return cluster("dgx-h100", nodes, "ndr-ib", name="dgx-h100-cluster")


def cpu_cluster(nodes: int = 4, gbe: int = 10) -> Machine:
    """``nodes`` CPU servers (Xeon Platinum 8380), one NIC each, on a 10 or 25 GbE switch.

    Ethernet line rates from collectives.md §4 (1.25 / 3.125 GB/s); TCP host-to-host latency
    25 µs (10-50 µs rule of thumb, §4, unverified).
    """
    rates = {10: L.ETH_10G, 25: L.ETH_25G}
    if gbe not in rates:
        raise ValueError(t("hardware.bad_choice", what="gbe", value=gbe, known="10, 25"))
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
        raise ValueError(t("hardware.bad_count", what="nodes", value=nodes))
    m = Machine("cpu-cluster", job="worker", description=f"{nodes} CPU hosts on {gbe} GbE")
    tor = m.add_node("eth-switch", "switch")
    for host in range(nodes):
        cpu = m.add_device("CPU", D.XEON_8380, host=host)
        nic = m.add_node(f"host{host}:nic0", "nic", host=host)
        m.connect(cpu, nic, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
        m.connect(nic, tor, rates[gbe], L.TCP_HOP / 2, "ethernet")
    return m


def tpu_v3_8() -> Machine:
    """Cloud TPU v3-8: 4 chips x 2 cores = 8 TPU devices on one host (Cloud TPU v3 docs).

    The 4 chips form a 2x2 torus; in a ring of 2 the wraparound doubles each neighbour pair's
    links, so each pair has 2 ICI links of 82 GB/s (656 Gbit/s, Jouppi et al. CACM 2020,
    collectives.md §4). The two cores of a chip share its HBM (900 GB/s) as their "link".
    """
    m = Machine("tpu-v3-8", job="worker", description="4 TPU v3 chips (8 cores), 2x2 ICI torus")
    cpu = m.add_device("CPU", D.XEON_8380, transit=False)
    chips = [m.add_node(f"chip{c}", "chip", host=0) for c in range(4)]
    for chip in chips:
        for _ in range(2):
            m.connect(m.add_device("TPU", D.TPU_V3_CORE, transit=False), chip, 900e9, 0.0, "on-chip")
        m.connect(cpu, chip, L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
    for a, b in ((0, 1), (2, 3), (0, 2), (1, 3)):
        m.connect(chips[a], chips[b], L.ICI_V3, L.ICI_HOP, "ici", count=2)
    return m


def tpu_v4(shape: tuple[int, int, int] = (2, 2, 2)) -> Machine:
    """A Cloud TPU v4 slice of ``shape`` chips (one TensorFlow device per chip, 4 chips per host).

    Each chip links to its 6 neighbours (3-D torus): ICI 50 GB/s per link per direction
    (2400 Gbit/s per chip over 6 links, Cloud TPU v4 docs; unverified in collectives.md §4).
    A dimension wraps around only when its length is a multiple of 4 (whole 4x4x4 cubes joined
    by optical switches form tori; smaller slices are meshes).
    """
    if len(shape) != 3 or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in shape):
        raise ValueError(t("hardware.bad_shape", value=shape))
    X, Y, Z = shape
    n = X * Y * Z
    m = Machine("tpu-v4", job="worker", description=f"TPU v4 slice {X}x{Y}x{Z} ({n} chips)")
    coords = list(itertools.product(range(Z), range(Y), range(X)))
    chips = {}
    for i, (z, y, x) in enumerate(coords):
        host = i // 4
        if i % 4 == 0:
            cpu = m.add_device("CPU", D.XEON_8380, host=host, transit=False)
        chips[(x, y, z)] = chip = m.add_device("TPU", D.TPU_V4_CHIP, host=host)
        m.connect(cpu, chip, L.PCIE_GEN4_X16, L.PCIE_HOP / 2, "pcie")
    for (x, y, z), chip in chips.items():
        for dim, size in enumerate(shape):
            c = [x, y, z]
            if c[dim] + 1 < size:
                c[dim] += 1
            elif size >= 4 and size % 4 == 0:
                c[dim] = 0
            else:
                continue
            m.connect(chip, chips[tuple(c)], L.ICI_V4, L.ICI_HOP, "ici")
    return m


PRESETS = {
    "workstation-4gpu": workstation_4gpu,
    "dgx1-v100": dgx1_v100,
    "dgx-a100": dgx_a100,
    "dgx-h100": dgx_h100,
    "cpu-cluster": cpu_cluster,
    "dgx-a100-cluster": dgx_a100_cluster,
    "dgx-h100-cluster": dgx_h100_cluster,
    "tpu-v3-8": tpu_v3_8,
    "tpu-v4": tpu_v4,
    "dgx1-p100": _from_file("dgx1-p100"),
    "pascal-pcie-4gpu": _from_file("pascal-pcie-4gpu"),
    "big-basin": _from_file("big-basin"),
}


def switched(p: int, bandwidth: float, hop_latency: float, spec=D.A100_SXM4,
             kind: str = "nvlink") -> Machine:
    """p devices on one non-blocking switch, one full-duplex port each (collectives.md §0 model).

    The uncontended machine the closed forms assume: a message costs ``2·hop_latency`` (two hops)
    plus its bytes over ``bandwidth``. Not a named preset: tests and exercises build it to order.
    """
    m = Machine(f"switch-{p}")
    hub = m.add_node("switch", "switch")
    for _ in range(p):
        m.connect(m.add_device("GPU", spec), hub, bandwidth, hop_latency, kind)
    return m


def preset_names() -> list[str]:
    return list(PRESETS)


def preset(name: str = DEFAULT, **kw) -> Machine:
    """Build the preset machine ``name`` (see ``preset_names()``), e.g. ``preset("dgx-a100")``."""
    try:
        build = PRESETS[name]
    except (KeyError, TypeError):
        raise ValueError(t("hardware.unknown_preset", name=name,
                           known=", ".join(PRESETS))) from None
    return build(**kw)


def as_machine(machine, **kw) -> Machine:
    """``machine`` itself, or the preset it names: what every "Machine or preset name" argument takes."""
    return preset(machine, **kw) if isinstance(machine, str) else machine
