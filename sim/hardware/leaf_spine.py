"""A two-tier leaf-spine network between a cluster's nodes, and how each flow picks its spine.

Why: a real cluster is not one switch. Each node's NIC ports plug into a leaf (top-of-rack)
switch, and every leaf has one uplink to each spine. Traffic between two leaves crosses one
spine, and which one is fixed per flow, whatever the load, by one of two rules:

* ``ecmp`` (Ethernet, RoCE): the switch hashes each packet's header fields and takes the hash
  modulo the number of equal-cost next hops (RFC 2991 §2, modulo-N hash; RFC 2992). A flow's
  packets all hash alike, so a flow keeps one uplink, and two flows hashed onto the same uplink
  share it while another idles (Al-Fares et al., "Hedera", NSDI 2010, §2). Training traffic is a
  few long flows: NCCL opens one queue pair per connection (``src/transport/net_ib.cc``:
  ``NCCL_PARAM(IbQpsPerConn, "IB_QPS_PER_CONNECTION", 1)``), so there is little to even it out.
  Here a flow is one pair of NIC ports, and its spine is the CRC-32 of the fabric's seed and its
  two ends, modulo the spines: uniform, fixed for the pair, the same on every run.
* ``d-mod-k`` (InfiniBand): the subnet manager fills static tables by destination; OpenSM's
  fat-tree routing sends destination ``d`` up port ``d mod k`` (Zahavi, "D-Mod-K Routing
  Providing Non-Blocking Traffic for Shift Permutations on Real Life Fat Trees", 2010). Here
  ``d`` is the destination port's position in the cluster (host x NICs per host + NIC).

``wiring``: ``host`` plugs every NIC port of a host into one leaf (a rack's top-of-rack switch);
``rail`` plugs NIC ``k`` of every host into the leaves of rail ``k``, one port per host on each,
as NVIDIA's DGX SuperPOD reference architectures wire their compute fabric. A flow between hosts
then leaves by the NIC on its destination's rail, so it stays under one leaf: from a GPU under the
same PCIe switch as that NIC directly, from another GPU over NVLink through the GPU beside that
NIC (NCCL's PXN, ``src/graph/paths.cc``: ``NCCL_PARAM(PxnDisable, "PXN_DISABLE", 0)``, used when
the peer reaches the NIC through PCI and us through NVLink). Without such a way it leaves by its
own NIC and crosses a spine between rails.

Each uplink carries ``leaf_ports x port rate / (spines x oversubscription)``: at oversubscription
1 the fabric is non-blocking in aggregate and only the routing can congest it. ``placement``:
``packed`` fills leaves in host order (a ring then crosses few leaf boundaries), ``scattered``
puts the hosts in seeded random slots (a scheduler that gives a job whichever nodes are free).
Switch hops add no latency: the network's per-message latency is NIC to NIC. The links' max-min
sharing (``sim.des.flows``, the replays) then gives what the collisions cost.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from sim.i18n import join_list, t

ROUTINGS = ("ecmp", "d-mod-k")
PLACEMENTS = ("packed", "scattered")
WIRINGS = ("host", "rail")


@dataclass(frozen=True)
class LeafSpine:
    """``leaf_ports`` NIC ports under each leaf, ``spines`` spine switches, uplinks sized by
    ``oversubscription`` (module docstring). ``routing`` None: the network's own rule
    (``d-mod-k`` on InfiniBand, ``ecmp`` otherwise)."""

    leaf_ports: int
    spines: int
    oversubscription: float = 1.0
    routing: str | None = None
    placement: str = "packed"
    seed: int = 0
    wiring: str = "host"

    def __post_init__(self):
        for field in ("leaf_ports", "spines", "seed"):
            value = getattr(self, field)
            low = 0 if field == "seed" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(t("hardware.bad_fabric_count", field=field, value=value, low=low))
        o = self.oversubscription
        if isinstance(o, bool) or not isinstance(o, (int, float)) or not math.isfinite(o) or o < 1:
            raise ValueError(t("hardware.bad_oversubscription", value=o))
        if self.routing is not None and self.routing not in ROUTINGS:
            raise ValueError(t("hardware.bad_fabric_choice", field="routing", value=self.routing,
                               known=join_list(ROUTINGS)))
        for field, known in (("placement", PLACEMENTS), ("wiring", WIRINGS)):
            if getattr(self, field) not in known:
                raise ValueError(t("hardware.bad_fabric_choice", field=field,
                                   value=getattr(self, field), known=join_list(known)))

    def rule(self, network) -> str:
        """The routing rule on ``network``: the one given, else its kind's."""
        if self.routing is not None:
            return self.routing
        return "d-mod-k" if network.kind == "infiniband" else "ecmp"

    def takes(self, nics_per_host: int) -> bool:
        """Whether a leaf has room for a host's NICs: all of them under host wiring, one under
        rail wiring."""
        return self.wiring == "rail" or nics_per_host <= self.leaf_ports

    def hosts_per_leaf(self, nics_per_host: int) -> int:
        """Host wiring: every NIC of a host plugs into the same leaf. Rail wiring: a leaf takes
        one NIC of each of ``leaf_ports`` hosts."""
        if not self.takes(nics_per_host):
            raise ValueError(t("hardware.leaf_too_small", ports=self.leaf_ports, nics=nics_per_host))
        return self.leaf_ports if self.wiring == "rail" else self.leaf_ports // nics_per_host

    def port_leaves(self, hosts: int, nics_per_host: int) -> list[list[int]]:
        """The leaf of each host's NIC ports, ``[host][k]``: all on the host's leaf (host wiring),
        or NIC ``k`` on rail ``k``'s leaf of the host's slot (rail wiring)."""
        group = self.leaves(hosts, nics_per_host)
        if self.wiring == "host":
            return [[g] * nics_per_host for g in group]
        per_rail = max(group) + 1
        return [[k * per_rail + g for k in range(nics_per_host)] for g in group]

    def leaves(self, hosts: int, nics_per_host: int) -> list[int]:
        """The leaf (per rail, under rail wiring) of each host: packed in host order, or seeded
        random slots."""
        per_leaf = self.hosts_per_leaf(nics_per_host)
        if self.placement == "packed":
            return [h // per_leaf for h in range(hosts)]
        slots_in_use = -(-hosts // per_leaf) * per_leaf          # as many leaves as packed needs
        slots = np.random.default_rng([self.seed, 4242]).permutation(slots_in_use)[:hosts]
        return [int(s) // per_leaf for s in slots]

    def uplink_rate(self, port_rate: float) -> float:
        """What one leaf-to-spine link carries per direction (B/s)."""
        return self.leaf_ports * port_rate / (self.spines * self.oversubscription)

    def spine(self, rule: str, src: int, dst: int) -> int:
        """The spine a flow from NIC port ``src`` to port ``dst`` (cluster positions) crosses."""
        if rule == "d-mod-k":
            return dst % self.spines
        return zlib.crc32(f"{self.seed}:{src}:{dst}".encode()) % self.spines
