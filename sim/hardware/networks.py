"""Networks between nodes, by name: line rate per NIC port, transport, and what a copy achieves.

Line rates: reference collectives.md §4 (InfiniBand EDR/HDR/NDR 4x: 100/200/400 Gb/s = 12.5/25/50
GB/s per direction; Ethernet 10/25/50/100 GbE: 1.25/3.125/6.25/12.5 GB/s). Latencies and
achievable fractions are the transport's, and are stated assumptions, not measurements:

* RDMA (InfiniBand, RoCE): NCCL's IB transport moves GPU memory without the CPU (GPUDirect RDMA);
  a copy gets the full line rate, and a message pays NCCL's network hop latency, 2.7 µs
  (Ring/LL, §3.3; RDMA small-message end-to-end is 1-2 µs, §4).
* TCP (plain Ethernet): NCCL's socket transport copies through the kernel's TCP stack. What a
  copy carries is protocol arithmetic (``tcp_goodput_fraction``): with the standard 1500-byte MTU
  each frame takes 1538 bytes of wire time (IEEE 802.3: 8 preamble + SFD, 14 header, 1500
  payload, 4 FCS, 12 inter-frame gap) and carries 1448 bytes of data (1500 - 20 IPv4 - 20 TCP -
  12 of the timestamps option Linux sends on every segment, RFC 7323 §3), 94.1 % of the line
  rate. ASSUMED: 25 µs per message (§4 rule of thumb "TCP over Ethernet ~10-50 µs", unverified
  there) and ``TCP_GAP`` per message at an endpoint.
* The socket path's CPU cost, when the learner gives it (``stream_rate``, off by default): the
  kernel's copies run on a CPU core, and a core that cannot keep up with the NIC caps a TCP
  connection below the line rate ("a single core is no longer able to process packets at line
  rate" at 100 Gb/s, data copy at the receiver the bottleneck: Cai et al., "Understanding Host
  Network Stack Overheads", SIGCOMM 2021). NCCL's socket transport sends through one thread per
  GPU unless ``NCCL_SOCKET_NTHREADS`` starts helpers (``src/transport/net_socket.cc``,
  ``ncclNetSocketGetNsockNthread``: no helper threads on a generic host, 2 on AWS, 4 on GCP), and
  splits a transfer evenly over its sockets, so "the NCCL bandwidth will be the minimum speed of
  the sockets multiplied by the number of sockets" (NCCL's maintainer, NVIDIA/nccl-tests#83). A
  NIC then carries ``min(line rate x fraction, socket_threads x stream_rate)``, where
  ``stream_rate`` is what one connection on the learner's hosts carries (``iperf3 -P 1``). No
  preset sets it: no measurement of the presets' hosts was found.
* RDMA (RoCE) pays Ethernet framing too (RoCEv2 adds 58 bytes of headers per packet of up to
  4096 bytes, about 2 %); it is left at the line rate, as NCCL's own IB model does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from sim.hardware import links as L

RDMA, TCP = "rdma", "tcp"
MTU, ETHERNET_FRAMING, IP_TCP_HEADERS, TCP_TIMESTAMPS = 1500, 38, 40, 12     # bytes


def tcp_goodput_fraction(mtu: int = MTU) -> float:
    """Data bytes per byte of Ethernet wire time for a bulk TCP stream (module docstring)."""
    return (mtu - IP_TCP_HEADERS - TCP_TIMESTAMPS) / (mtu + ETHERNET_FRAMING)


TCP_FRACTION = tcp_goodput_fraction()    # 1448 / 1538 = 0.9415
RDMA_FRACTION = 1.0
# LogGP's gap g per message at an endpoint (sim.collectives.endpoint): RDMA, NCCL's network post
# overhead on Intel CPUs (NVIDIA/nccl src/graph/tuning.cc, collectives.md §3.3).
RDMA_GAP = 1.0e-6
# TCP: ASSUMED 5 us, one send() and one recv() system call with its copy per message on the
# kernel's socket path (a few us each on a 2017 Xeon), five times RDMA's post.
TCP_GAP = 5.0e-6
# NCCL clamps NCCL_SOCKET_NTHREADS to 16 (src/transport/net_socket.cc, MAX_THREADS).
MAX_SOCKET_THREADS = 16


@dataclass(frozen=True)
class Network:
    """One network: ``line_rate`` per NIC port per direction (B/s), ``transport`` (rdma | tcp),
    ``latency`` per message NIC to NIC (s), ``fraction`` of the line rate a copy achieves."""

    name: str
    line_rate: float
    transport: str
    latency: float
    fraction: float
    source: str
    gap: float = RDMA_GAP
    stream_rate: float | None = None     # what one TCP connection carries (B/s); None: no CPU limit
    socket_threads: int = 1              # cores driving NCCL's sockets (NCCL_SOCKET_NTHREADS, >= 1)

    @property
    def bandwidth(self) -> float:
        """What one NIC port carries per direction in the simulator (B/s): the protocol's share
        of the line rate, or less when the CPU's socket path is slower (module docstring)."""
        wire = self.line_rate * self.fraction
        if self.stream_rate is None:
            return wire
        return min(wire, self.socket_threads * self.stream_rate)

    def with_socket_path(self, single_stream_gbps: float, socket_threads: int = 1) -> "Network":
        """This network when one TCP connection carries ``single_stream_gbps`` (as ``iperf3 -P 1``
        measures on the learner's hosts) and ``socket_threads`` cores drive NCCL's sockets."""
        from sim.i18n import t
        if self.transport != TCP:
            raise ValueError(t("cluster.socket_path_tcp_only", name=self.name))
        if not (isinstance(single_stream_gbps, (int, float)) and math.isfinite(single_stream_gbps)
                and single_stream_gbps > 0):
            raise ValueError(t("cluster.bad_single_stream", value=single_stream_gbps))
        if isinstance(socket_threads, bool) or not isinstance(socket_threads, int) \
                or not 1 <= socket_threads <= MAX_SOCKET_THREADS:
            raise ValueError(t("cluster.bad_socket_threads", value=socket_threads))
        return replace(self, stream_rate=single_stream_gbps * 1e9 / 8, socket_threads=socket_threads)

    @property
    def cpu_bound(self) -> bool:
        """True when the socket path, not the wire, sets the bandwidth."""
        return self.bandwidth < self.line_rate * self.fraction

    @property
    def kind(self) -> str:
        return "infiniband" if self.name.endswith("-ib") else "ethernet"


def _rdma(name, rate, source):
    return Network(name, rate, RDMA, L.NET_HOP, RDMA_FRACTION, source, RDMA_GAP)


def _tcp(name, rate, source):
    return Network(name, rate, TCP, L.TCP_HOP, TCP_FRACTION, source, TCP_GAP)


def gap_for_kind(kind: str) -> float:
    """``g`` for a network link of a machine that does not name its network (``cpu-cluster``:
    Ethernet, TCP; InfiniBand: RDMA)."""
    return TCP_GAP if kind == "ethernet" else RDMA_GAP


NETWORKS = {n.name: n for n in (
    _tcp("10gbe", L.ETH_10G, "10 GbE, §4"),
    _tcp("25gbe", L.ETH_25G, "25 GbE, §4"),
    _rdma("25gbe-roce", L.ETH_25G, "25 GbE with RoCE (RDMA over Converged Ethernet), §4"),
    _tcp("50gbe", 6.25 * L.GB, "50 GbE, §4"),
    _tcp("100gbe", 12.5 * L.GB, "100 GbE, §4"),
    _rdma("edr-ib", L.IB_EDR, "InfiniBand EDR 4x, 100 Gb/s, §4"),
    _rdma("hdr-ib", L.IB_HDR, "InfiniBand HDR 4x, 200 Gb/s, §4"),
    _rdma("ndr-ib", L.IB_NDR, "InfiniBand NDR 4x, 400 Gb/s, §4"),
)}


def network_names() -> list[str]:
    return list(NETWORKS)


def network(name) -> Network:
    """The network called ``name`` (``network_names()``); a Network is returned as is."""
    if isinstance(name, Network):
        return name
    key = str(name).strip().lower().replace("_", "-")
    if key not in NETWORKS:
        from sim.i18n import join_list, t
        raise ValueError(t("cluster.unknown_network", name=name, known=join_list(NETWORKS)))
    return NETWORKS[key]
