"""Per-message cost at an endpoint: LogGP's gap ``g`` (Alexandrov, Ionescu, Schauser & Scheiman,
"LogGP: Incorporating Long Messages into the LogP Model", SPAA 1995).

In LogP/LogGP a processor can inject, and absorb, at most one message per ``g`` seconds, however
small the messages: each one costs the endpoint a fixed amount of work (post a work request, poll
its completion, run a socket send/recv). The α-β model leaves that out, so a reduce-to-one on
1024 GPUs had one receiver take 1023 messages in one α. Here a rank's network messages (those
whose route crosses a NIC-to-switch link) are serialised at ``g`` apart on each side:

    sender:    the k-th message of a rank starts at  max(ready_k, start_{k-1} + g)
    receiver:  the k-th message at a rank lands at   max(arrival_k, landed_{k-1} + g)

in the order the messages would otherwise start / arrive. One message alone pays nothing extra:
its endpoint cost is already in the transport's per-message latency (NCCL's measured hop latency
``α``), so the α-β closed forms stay exact wherever a rank has one network message in flight at
a time (rings); where many meet at one rank (reduce-to-one's root, a tree's parent), ``p``
messages cost at least ``(p − 1)·g`` more.

``g`` per transport (``sim.hardware.networks``): RDMA 1 µs, NCCL's own figure for the network
post overhead on Intel CPUs (``NVIDIA/nccl`` ``src/graph/tuning.cc``, collectives.md §3.3:
"network post overhead (1 µs Intel, 2 µs AMD)"); TCP: see ``networks.TCP_GAP``. Links inside a
node (NVLink, PCIe) have no gap here (GPU kernels poll their FIFOs; NCCL's intra-node latency
constants already hold that cost).
"""
from __future__ import annotations

import numpy as np

NETWORK_KINDS = ("infiniband", "ethernet")


def link_gaps(machine) -> np.ndarray:
    """``g`` (s) per link direction of ``machine`` (two per link, as the replay indexes them)."""
    from sim.hardware.networks import gap_for_kind
    net = getattr(machine, "network", None)
    out = np.zeros(2 * len(machine.links) + 1)
    for link in machine.links:
        if link.kind in NETWORK_KINDS:
            g = net.gap if net is not None else gap_for_kind(link.kind)
            out[2 * link.index] = out[2 * link.index + 1] = g
    return out


def serialise(times: np.ndarray, who: np.ndarray, gap: np.ndarray, last: np.ndarray,
              distinct: bool | None = None) -> np.ndarray:
    """Times pushed so that the messages of one endpoint ``who`` are ``gap`` apart (in the order
    of ``times``) and ``gap`` after that endpoint's previous message ``last[who]``; ``last`` is
    updated in place. Vectorised over endpoints: one pass per message of the busiest endpoint.
    ``distinct``: whether ``who`` has no repeats, when the caller knows (None: counted here)."""
    counts = None
    if distinct is None:
        counts = np.bincount(who, minlength=last.size)
        distinct = bool(counts.max(initial=0) <= 1)
    if distinct:
        out = np.maximum(times, last[who] + gap)
        last[who] = out
        return out
    out = times.copy()
    if counts is None:
        counts = np.bincount(who, minlength=last.size)
    order = np.lexsort((times, who))
    w = who[order]
    starts = np.concatenate([[0], np.cumsum(counts)])[w]
    position = np.arange(order.size) - starts
    for j in range(int(counts.max())):
        at = order[position == j]
        out[at] = np.maximum(times[at], last[who[at]] + gap[at])
        last[who[at]] = out[at]
    return out


def endpoint_gap(pat, begin, send_last):
    """Network messages of one sender start ``g`` apart (in place); their indices, or None."""
    if not pat.net.size:
        return None
    net = pat.net
    begin[net] = serialise(begin[net], pat.net_src, pat.net_gap, send_last, pat.net_senders_distinct)
    return net
