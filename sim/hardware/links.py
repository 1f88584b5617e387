"""Links: full-duplex wires between two nodes, with a latency and a bandwidth per direction.

The numbers below are what the presets use. Bandwidth: NCCL's own modelled values where NCCL
has one (``NVIDIA/nccl src/graph/topo.h``, collectives.md §3.5), because they are what a copy
actually achieves (25 GB/s NVLink signalling delivers ~20 GB/s with 128-byte payloads);
otherwise the vendor line rate (collectives.md §4). Latency: NCCL's per-hop latency for the
LL protocol (collectives.md §3.3: NVLink 0.6 µs, PCIe 1.0 µs, network 2.7 µs). When a hop goes
through a switch (GPU -> switch -> GPU), each of the two links gets half the hop latency, so
the device-to-device hop costs what NCCL says. Ethernet/TCP and TPU ICI latencies are rules of
thumb (collectives.md §4, marked unverified there).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sim.i18n import t

GB = 1e9
US = 1e-6

# Bandwidth per direction (B/s).
NVLINK_V100 = 20.0 * GB        # NCCL sm70 value per NVLink (§3.5); line rate 25 GB/s (§4)
NVLINK_A100 = 20.0 * GB        # NCCL sm80 per link; an A100 has 12 links (§4)
NVLINK_H100 = 20.6 * GB        # NCCL sm90 per link; an H100 has 18 links (§4)
PCIE_GEN3_X16 = 12.0 * GB      # NCCL model of x16 Gen3 (§3.5); line rate 15.75 GB/s (§4)
PCIE_GEN4_X16 = 24.0 * GB      # NCCL model of x16 Gen4 (§3.5)
PCIE_GEN5_X16 = 48.0 * GB      # NCCL model of x16 Gen5 (§3.5)
QPI_BROADWELL = 6.0 * GB       # NCCL Intel QPI, Broadwell (§3.5)
UPI_SAPPHIRE_RAPIDS = 22.0 * GB  # NCCL Intel UPI, Sapphire Rapids (§3.5)
AMD_INTER_SOCKET = 16.0 * GB   # NCCL AMD inter-socket (§3.5)
IB_EDR = 12.5 * GB             # InfiniBand EDR 4x, 100 Gb/s (§4)
IB_HDR = 25.0 * GB             # InfiniBand HDR 4x, 200 Gb/s (§4)
IB_NDR = 50.0 * GB             # InfiniBand NDR 4x, 400 Gb/s (§4)
ETH_10G = 1.25 * GB            # 10 GbE (§4)
ETH_25G = 3.125 * GB           # 25 GbE (§4)
ICI_V3 = 82.0 * GB             # TPU v3 ICI 656 Gbit/s per link (Jouppi et al. CACM 2020, §4), read as per direction
ICI_V4 = 50.0 * GB             # TPU v4: 2400 Gbit/s per chip over 6 links (Cloud TPU v4 docs); unverified in §4

# Latency per hop (s).
NVLINK_HOP = 0.6 * US          # NCCL Ring LL NVLink hop (§3.3)
PCIE_HOP = 1.0 * US            # NCCL Ring LL PCIe hop (§3.3)
NET_HOP = 2.7 * US             # NCCL Ring LL network hop (§3.3)
TCP_HOP = 25.0 * US            # TCP over Ethernet, 10-50 µs rule of thumb (§4, unverified)
ICI_HOP = 1.0 * US             # TPU ICI hop, assumed (no sourced figure in §4)


@dataclass(frozen=True, eq=False)
class Link:
    """A full-duplex link between nodes ``a`` and ``b``.

    ``bandwidth`` is bytes/second in *each* direction (the two directions never compete);
    ``latency`` is seconds added once to every transfer that crosses the link.
    ``index`` is the link's position in its machine (set by ``Machine.connect``).
    """

    a: str
    b: str
    bandwidth: float
    latency: float
    kind: str = "link"
    index: int = -1

    def __post_init__(self):
        check_link_numbers(self.a, self.b, self.bandwidth, self.latency)

    def other(self, node: str) -> str:
        return self.b if node == self.a else self.a


def check_link_numbers(a, b, bandwidth, latency) -> None:
    """Raise a ValueError naming the mistake when a link's numbers cannot be right."""
    if isinstance(bandwidth, bool) or not isinstance(bandwidth, (int, float)) \
            or not math.isfinite(bandwidth) or bandwidth <= 0:
        raise ValueError(t("hardware.bad_bandwidth", a=a, b=b, value=bandwidth))
    if isinstance(latency, bool) or not isinstance(latency, (int, float)) \
            or not math.isfinite(latency) or latency < 0:
        raise ValueError(t("hardware.bad_latency", a=a, b=b, value=latency))
