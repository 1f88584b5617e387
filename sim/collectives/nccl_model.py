"""NCCL's own tuning model: predict the time of every (algorithm, protocol) and pick the fastest.

Source: NVIDIA/nccl ``src/graph/tuning.cc`` (constants and composition as summarised in
reference §3; ``treeCorrectionFactor`` from the same file). NCCL computes
``time_us = latency_us + bytes / (1000 · algBw_GBps)`` for Ring and Tree with the LL, LL128 and
Simple protocols and takes the minimum; the choice depends on the message size, the number of
ranks and nodes, the GPU generation and whether the GPUs talk over NVLink or PCIe.

What NCCL learns from its topology search (channels and per-channel bandwidth) is approximated
from the simulated machine in ``topology_of``: the bus bandwidth of a GPU is the sum of its
NVLink (or its PCIe) bandwidth, capped by the node's network bandwidth on several nodes, and
NCCL's per-link value sets the channel count. CollNet, NVLS and PAT are not modelled.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

LL, LL128, SIMPLE = "LL", "LL128", "Simple"
PROTOCOLS = (LL, LL128, SIMPLE)
RING, TREE = "ring", "tree"

# §3.3 base latency (µs) per protocol (LL, LL128, Simple)
BASE_LAT = {TREE: (6.8, 14.0, 8.4), RING: (6.6, 14.0, 8.4)}
# §3.3 per-hop hardware latency (µs)
HW_LAT = {
    "nvlink": {TREE: (0.6, 1.25, 4.0), RING: (0.6, 1.9, 3.4)},
    "pcie": {TREE: (1.0, 1.9, 4.0), RING: (1.0, 2.5, 5.7)},
    "net": {TREE: (5.0, 8.5, 14.0), RING: (2.7, 4.0, 14.0)},
}
# §3.2 per-channel caps (GB/s) for [1 node, 2 nodes, 3+ nodes]
PER_CH_MAX_RING_LL128 = {"volta": (20, 20, 20), "ampere": (20, 20, 20), "hopper": (36.7, 36.7, 36.7),
                         "blackwell": (40, 40, 40)}
PER_CH_MAX_TREE_LL128 = {"volta": (20, 20, 20), "ampere": (20, 20, 20), "hopper": (36.7, 36.7, 29.0),
                         "blackwell": (55.6, 31.67, 20.0)}
PER_CH_MAX_TREE = {"volta": (26.5, 18.5, 10.0), "ampere": (24.0, 23.6, 17.8), "hopper": (38.7, 41.4, 36.0),
                   "blackwell": (70.0, 42.8, 24.0)}
LL_MAX_BW_1NODE = {"volta": 39.0, "ampere": 87.7, "hopper": 141.0, "blackwell": 282.0}
LL_MAX_BW_MULTI = {"intel": (39.0, 20.4), "amd": (22.5, 19.0)}      # (2 nodes, 3+ nodes)
# NVLink bandwidth per link as NCCL assumes it (§3.5), GB/s
NVLINK_PER_LINK = {"volta": 20.0, "ampere": 20.0, "hopper": 20.6, "blackwell": 40.1}
# tuning.cc treeCorrectionFactor[protocol][log2(bytes/64)], 64 B .. 512 MiB
TREE_CORRECTION = {
    LL: (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0),
    LL128: (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0),
    SIMPLE: (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9),
}


@dataclass(frozen=True)
class NcclTopology:
    """What NCCL's tuner needs to know about a communicator."""

    arch: str = "ampere"            # volta | ampere | hopper | blackwell
    n_ranks: int = 8
    n_nodes: int = 1
    intra: str = "nvlink"           # nvlink | pcie
    bus_bw: float = 240.0           # GB/s: n_channels x per-channel bandwidth from the topology search
    n_channels: int = 12
    cpu: str = "intel"
    extra: dict = field(default_factory=dict, compare=False)


def _log2i(x: int) -> int:
    return x.bit_length() - 1 if x > 0 else -1


def _node_index(n_nodes: int) -> int:
    return n_nodes - 1 if n_nodes <= 2 else 2


def bus_bandwidth(topo: NcclTopology, algorithm: str, protocol: str) -> float:
    """NCCL's bus bandwidth (GB/s) for all-reduce after its per-protocol refinements (§3.2)."""
    i = _node_index(topo.n_nodes)
    nch = topo.n_channels
    bw = topo.bus_bw
    ll_max = (LL_MAX_BW_1NODE[topo.arch] if topo.n_nodes == 1
              else LL_MAX_BW_MULTI[topo.cpu][0 if topo.n_nodes == 2 else 1])
    if algorithm == RING:
        if protocol == LL:
            bw = min(ll_max, 0.5 * bw)
        elif protocol == LL128:
            bw = min(0.92 * bw, nch * PER_CH_MAX_RING_LL128[topo.arch][i])
        return bw
    bw = min(0.92 * bw, nch * PER_CH_MAX_TREE[topo.arch][i])
    if protocol == LL:
        bw = min(bw / 3.8, ll_max)
    elif protocol == LL128:
        bw = min(bw * (7.0 / 9.0 if topo.n_nodes == 1 else 120.0 / 128.0), nch * PER_CH_MAX_TREE_LL128[topo.arch][i])
    return bw


def algorithm_bandwidth(topo: NcclTopology, algorithm: str, protocol: str) -> float:
    """Bus bandwidth turned into algorithm bandwidth: ring ``· p / (2(p-1))``, tree ``· 0.5``."""
    bus = bus_bandwidth(topo, algorithm, protocol)
    if algorithm == RING:
        nsteps = 2 * (topo.n_ranks - 1)
        return bus * topo.n_ranks / nsteps if nsteps else float("inf")
    return bus * 0.5


def latency_us(topo: NcclTopology, algorithm: str, protocol: str) -> float:
    """NCCL's all-reduce latency term in µs (§3.3 composition)."""
    k = PROTOCOLS.index(protocol)
    p, n_nodes = topo.n_ranks, topo.n_nodes
    g = p // n_nodes
    intra = HW_LAT[topo.intra][algorithm][k]
    inter = HW_LAT["net"][algorithm][k]
    base = BASE_LAT[algorithm][k]
    if algorithm == RING:
        nsteps = 2 * (p - 1)
        n_inter = 2 * (n_nodes - 1)
        if n_nodes > 1:
            overhead = (1.0 if topo.cpu == "intel" else 2.0) * (3 if protocol == SIMPLE else 1)
            intra = max(intra, overhead)
            if g == 1:
                inter = HW_LAT["net"][TREE][k]
        return base + (nsteps - n_inter) * intra + n_inter * inter
    return base + 2 * ((g - 1) * intra + _log2i(n_nodes) * inter)


def predict_us(topo: NcclTopology, nbytes: int, algorithm: str, protocol: str) -> float:
    """NCCL's predicted all-reduce time in µs for one (algorithm, protocol)."""
    if topo.intra != "nvlink" and protocol == LL128:
        return math.inf                     # LL128 is off by default away from NVLink
    bw = algorithm_bandwidth(topo, algorithm, protocol)
    lat = latency_us(topo, algorithm, protocol)
    if algorithm == TREE:
        log_size = _log2i(int(nbytes) >> 6)
        if 0 <= log_size < len(TREE_CORRECTION[protocol]):
            bw *= TREE_CORRECTION[protocol][log_size]
    if (algorithm == RING and protocol == SIMPLE and topo.n_nodes > 1
            and nbytes / (topo.n_channels * topo.n_ranks) >= 64):
        lat *= 1.9 if topo.arch == "volta" else 1.4
    return lat + nbytes / (1000.0 * bw)


def predict_all(topo: NcclTopology, nbytes: int) -> dict:
    """``{(algorithm, protocol): time_us}`` for every pair NCCL considers here."""
    return {(a, pr): predict_us(topo, nbytes, a, pr) for a in (RING, TREE) for pr in PROTOCOLS}


def choose(topo: NcclTopology, nbytes: int) -> tuple[str, str, float]:
    """NCCL's pick: ``(algorithm, protocol, predicted µs)`` of least predicted time."""
    if topo.n_ranks <= 1:
        return RING, SIMPLE, 0.0
    table = predict_all(topo, nbytes)
    (alg, proto), us = min(table.items(), key=lambda kv: kv[1])
    return alg, proto, us


def arch_of(model: str) -> str:
    """GPU generation from a device model name (V100 -> volta, A100 -> ampere, H100 -> hopper)."""
    m = model.upper()
    for key, arch in (("V100", "volta"), ("A100", "ampere"), ("H100", "hopper"), ("H200", "hopper"),
                      ("B200", "blackwell"), ("GB200", "blackwell")):
        if key in m:
            return arch
    return "ampere"


def topology_of(machine, ranks=None) -> NcclTopology:
    """Approximate what NCCL's topology search would find on a simulated machine."""
    devs = list(ranks) if ranks is not None else (machine.gpus or machine.devices)
    devs = [machine.device(d) for d in devs]
    hosts = sorted({d.host for d in devs})
    arch = arch_of(devs[0].model or "")
    per_link = NVLINK_PER_LINK[arch]

    names = {d.name for d in devs}
    nv_of: dict = {}
    pcie_of: dict = {}
    for ln in machine.links:                    # one pass over the links (a cluster has 10^5)
        for end in (ln.a, ln.b):
            if end in names:
                if "nv" in ln.kind.lower():
                    nv_of[end] = nv_of.get(end, 0.0) + ln.bandwidth
                else:
                    pcie_of[end] = max(pcie_of.get(end, 0.0), ln.bandwidth)
    nv_bw = [nv_of.get(d.name, 0.0) for d in devs]
    pcie_bw = [pcie_of.get(d.name, 0.0) for d in devs]
    single = len(devs) == 1
    nvlink = min(nv_bw) > 0 if not single else True
    bus = (min(nv_bw) if nvlink else min(pcie_bw)) / 1e9
    if len(hosts) > 1:
        nics = set(machine.nics(hosts[0]))
        net = sum(ln.bandwidth for ln in machine.links
                  if (ln.a in nics) != (ln.b in nics)
                  and machine.nodes[ln.b if ln.a in nics else ln.a].host is None) / 1e9
        if net > 0:
            bus = min(bus, net)
    unit = per_link if nvlink else max(bus, 1e-9)
    channels = max(1, int(round(bus / unit))) if bus > 0 else 1
    return NcclTopology(arch=arch, n_ranks=len(devs), n_nodes=len(hosts),
                        intra="nvlink" if nvlink else "pcie", bus_bw=max(bus, 1e-9), n_channels=channels)
