"""Clusters from any node: ``cluster("dgx-a100", nodes=16, network="hdr-ib")``.

A cluster is ``nodes`` copies of a single-node preset (its devices, switches and links, each
copy on its own host), whose NICs all plug into one non-blocking switch of the named network
(``sim.hardware.networks``; a cluster's fat tree as one switch, as the DGX cluster presets
always did), or, given ``fabric=LeafSpine(...)``, into the leaves of a leaf-spine network whose
routing picks each flow's spine (``sim.hardware.leaf_spine``). A NIC port carries the network's
achievable bandwidth and each of its two links (NIC -> switch -> NIC) half the network's per-message latency. A node without NICs of its own
(the workstation) gets one, on its CPU's PCIe root, so its GPUs reach the network through the
CPU (no GPUDirect). The ``-cluster`` presets are this function under their old names.
"""
from __future__ import annotations

from sim.i18n import join_list, t
from sim.hardware import devices as D
from sim.hardware import links as L
from sim.hardware.machine import Machine
from sim.hardware.networks import network as network_of



def _default_networks() -> dict:
    """The network each node preset ships with (its machine file's ``[network]``), for nodes=
    given without network=."""
    from sim.hardware.machine_file import preset_file
    from sim.hardware.presets import NODE_FILES
    return {name: preset_file(name).network.name for name in NODE_FILES}


DEFAULT_NETWORK = _default_networks()
# Cluster presets and the node they are made of.
ALIASES = {"dgx-a100-cluster": ("dgx-a100", "hdr-ib"), "dgx-h100-cluster": ("dgx-h100", "ndr-ib")}
# Presets that are not one node on a network, and what to do instead.
NOT_NODES = {"cpu-cluster": "cluster.cpu_cluster", "tpu-v3-8": "cluster.tpu", "tpu-v4": "cluster.tpu"}


def check_nodes(nodes) -> int:
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
        raise ValueError(t("hardware.bad_count", what="nodes", value=nodes))
    return nodes


def cluster(node: str = "dgx-a100", nodes: int = 2, network: str | None = None,
            name: str | None = None, fabric=None, **node_options) -> Machine:
    """``nodes`` copies of the single-node preset ``node`` on ``network`` (default: the node's own);
    ``fabric``: a ``LeafSpine`` (default: one non-blocking switch, or a machine file's
    ``[fabric]``); ``node_options`` go to the node's preset (``gpus=2`` for a two-GPU workstation)."""
    from sim.hardware.machine_file import NodeSpec
    from sim.hardware.presets import PRESETS, preset

    nodes = check_nodes(nodes)
    if isinstance(node, NodeSpec):               # a learner's machine file
        own = node.network is not None and network in (None, node.network.name)
        net = node.network if own else network_of(network or "hdr-ib")
        return _assemble(node.build(**node_options), node.name, nodes, net, name,
                         fabric if fabric is not None else node.fabric)
    if node in ALIASES:
        node, default = ALIASES[node]
        network = network or default
    if node in NOT_NODES:
        raise ValueError(t(NOT_NODES[node], name=node))
    if node not in PRESETS:
        raise ValueError(t("hardware.unknown_preset", name=node, known=join_list(PRESETS)))
    net = network_of(network or DEFAULT_NETWORK.get(node, "hdr-ib"))
    return _assemble(preset(node, **node_options), node, nodes, net, name, fabric)


def _assemble(template: Machine, node: str, nodes: int, net, name, fabric=None) -> "ClusterMachine":
    from sim.hardware.leaf_spine import LeafSpine
    if fabric is not None and not isinstance(fabric, LeafSpine):
        raise ValueError(t("hardware.want_leaf_spine", value=repr(fabric)))
    where = f"{net.name}, {fabric.leaf_ports}-port leaves x {fabric.spines} spines" if fabric else net.name
    m = ClusterMachine(name or f"{node}-x{nodes}", job="worker",
                       description=f"{nodes} x {node} on {where} ({net.transport})")
    m.network = net
    if fabric is None:
        m.switch = m.add_node(f"{net.name}-switch", "switch")
        m.edge = [m.switch] * nodes
        m.port_edge = [[m.switch] * max(1, len(template.nics(0)))] * nodes
    else:
        _leaf_spine(template, m, nodes, net, fabric)
    for host in range(nodes):
        _copy_node(template, m, host, net)
    m.template = template
    return m


def _leaf_spine(template: Machine, m: "ClusterMachine", nodes: int, net, fabric) -> None:
    """Leaves, spines and their uplinks (``sim.hardware.leaf_spine``); ``m.port_edge[h][k]``: the
    leaf NIC ``k`` of host ``h`` plugs into; ``m.edge[h]``: host h's leaf (host wiring only)."""
    nics = max(1, len(template.nics(0)))
    port_leaf = fabric.port_leaves(nodes, nics)
    leaves = [m.add_node(f"leaf{j}", "switch") for j in range(max(map(max, port_leaf)) + 1)]
    spines = [m.add_node(f"spine{k}", "switch") for k in range(fabric.spines)]
    rate = fabric.uplink_rate(net.bandwidth)
    m.port_edge = [[leaves[j] for j in row] for row in port_leaf]
    m.edge = [row[0] if fabric.wiring == "host" else None for row in m.port_edge]
    m.spine_links = [[m.connect(leaf, spine, rate, 0.0, net.kind) for spine in spines]
                     for leaf in leaves]
    m.port_leaf, m.fabric, m.rule = port_leaf, fabric, fabric.rule(net)


class ClusterMachine(Machine):
    """A cluster of identical nodes: routes are the template node's, translated.

    Every node is a copy of one template, and the network switch is the only way between
    hosts, so a route inside host ``h`` is the template's route on ``h``'s copies of the links,
    and a route between hosts is the source's shortest way out to the switch followed by the
    destination's way in (any path between hosts crosses the switch, so this is the shortest).
    Routing 10^4-GPU clusters this way costs microseconds per pair instead of a graph search.
    """

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.switch = None               # the one switch (None on a leaf-spine fabric)
        self.edge: list = []             # per host: the switch its NICs plug into (None: rails)
        self.port_edge: list = []        # per host, per NIC position: the switch it plugs into
        self.fabric = None               # a LeafSpine, or None: one switch joins every host
        self.port_leaf: list = []        # leaf-spine: per host, per NIC position, its leaf's index
        self.spine_links: list = []      # leaf-spine: [leaf][spine] uplink
        self.rule = None                 # leaf-spine: "ecmp" or "d-mod-k"
        self.network = None              # the sim.hardware.networks.Network between the nodes
        self.template = None
        self.local: dict = {}            # cluster node id -> (host, template node id)
        self.host_links: list = []       # per host: its copies of the template's links, in order
        self.uplink: list = []           # per host: {template NIC id: its link to the switch}
        self._exits: dict = {}           # template node id -> its way out to the switch on host 0
        self._reference = None           # rails: the node alone on one switch, for its exits

    def _shortest(self, s: str, d: str):
        if self.template is None or s == d or s not in self.local or d not in self.local:
            return super()._shortest(s, d)
        (hs, ts), (hd, td) = self.local[s], self.local[d]
        if hs == hd:
            return [(self.host_links[hs][link.index], way) for link, way in self.template.route(ts, td)]
        out = self._exit(hs, ts)
        back = [(link, 1 - way) for link, way in reversed(self._exit(hd, td))]
        if self.fabric is None:
            return out + back
        ps, pd = self._nic_position(ts), self._nic_position(td)
        if self.fabric.wiring == "rail" and ps != pd:
            rail = self._to_rail(hs, ts, pd)
            if rail is not None:
                out, ps = rail, pd
        up, down = self.port_leaf[hs][ps], self.port_leaf[hd][pd]
        if up == down:
            return out + back
        nics = len(self.uplink[0])
        k = self.fabric.spine(self.rule, hs * nics + ps, hd * nics + pd)
        return out + [(self.spine_links[up][k], 0), (self.spine_links[down][k], 1)] + back

    def _to_rail(self, host: int, tnode: str, position: int):
        """Rail wiring: the way from ``tnode`` on ``host`` out by NIC ``position``, directly from
        under that NIC's PCIe switch, else over NVLink through the GPU beside it (NCCL's PXN);
        None when neither exists (``sim.hardware.leaf_spine``)."""
        nic = list(self.uplink[0])[position]
        hops = self.template.route(tnode, nic)
        links = self.host_links[host]
        if len(hops) <= 2 and all(link.kind == "pcie" for link, _ in hops):
            return [(links[l.index], w) for l, w in hops] + [(self.uplink[host][nic], 0)]
        for proxy in (g.name for g in self.template.gpus if self._exit_nic(g.name) == nic):
            hops = self.template.route(tnode, proxy) if proxy != tnode else None
            if hops and self._one_nvlink_path(hops):
                return [(links[l.index], w) for l, w in hops] + self._exit(host, proxy)
        return None

    def _one_nvlink_path(self, hops) -> bool:
        """NVLink all the way, through no other GPU (NCCL's PATH_NVL, which PXN needs)."""
        ends = [link.b if way == 0 else link.a for link, way in hops][:-1]
        return (all(link.kind in ("nvlink", "nvswitch") for link, _ in hops)
                and all(self.template.nodes[n].kind == "switch" for n in ends))

    def _exit_nic(self, tnode: str) -> str:
        self._exit(0, tnode)
        return self._exits[tnode][1]

    def _nic_position(self, tnode: str) -> int:
        """Which of its host's NIC ports ``tnode``'s traffic leaves by (0, 1, ...); after
        ``_exit`` has found its way out."""
        return list(self.uplink[0]).index(self._exits[tnode][1])

    def _exit(self, host: int, tnode: str) -> list:
        """The shortest way from ``tnode``'s copy on ``host`` to the network switch (under rail
        wiring: the way it would take to one switch, so each GPU keeps its own NIC)."""
        way = self._exits.get(tnode)
        if way is None and self.edge[0] is None:      # rails: ask the same node on one switch
            if self._reference is None:
                self._reference = _assemble(self.template, "reference", 1, self.network, None)
            self._reference._exit(0, tnode)
            way = self._exits[tnode] = self._reference._exits[tnode]
        if way is None:                  # found once on host 0 by search, in template terms
            start = next(n for n, (h, tn) in self.local.items() if h == 0 and tn == tnode)
            hops = super()._shortest(start, self.edge[0])
            last = hops[-1][0]
            nic = self.local[last.a if last.b == self.edge[0] else last.b][1]
            index = {id(l): i for i, l in enumerate(self.host_links[0])}
            way = self._exits[tnode] = ([(index[id(link)], w) for link, w in hops[:-1]],
                                        nic, hops[-1][1])
        inner, nic, w = way
        links = self.host_links[host]
        return [(links[i], d) for i, d in inner] + [(self.uplink[host][nic], w)]


def _local(node_id: str) -> str:
    return node_id.split(":", 1)[1] if node_id.startswith("host0:") else node_id


def _copy_node(template: Machine, m: "ClusterMachine", host: int, net) -> None:
    """One copy of ``template`` on ``host`` of ``m``, its NIC ``k`` plugged into
    ``m.port_edge[host][k]``."""
    ids: dict = {}
    devices = {d.name: d for d in template.devices}
    for node_id, nd in template.nodes.items():
        if nd.kind == "device":
            dev = devices[node_id]
            spec = D.SPECS.get(dev.model) or D.DeviceSpec(
                dev.model, dev.device_type, dev.peak_flops, dev.memory_bytes, dev.memory_bandwidth,
                "", dev.tensor_dtypes, dev.sms)
            ids[node_id] = m.add_device(dev.device_type, spec, host=host, transit=nd.transit,
                                        peak_flops=dev.peak_flops, memory_bytes=dev.memory_bytes,
                                        memory_bandwidth=dev.memory_bandwidth).name
        else:
            ids[node_id] = m.add_node(f"host{host}:{_local(node_id)}", nd.kind, host=host,
                                      transit=nd.transit)
    links = [m.connect(ids[link.a], ids[link.b], link.bandwidth, link.latency, link.kind)
             for link in template.links]
    nics = template.nics(0)
    if not nics:                        # a node without NICs: one on its CPU's PCIe root
        template.add_node("host0:nic0", "nic", host=0)
        cpu = next(d for d in template.devices if d.device_type == "CPU")
        template.connect(cpu.name, "host0:nic0", L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie")
        ids["host0:nic0"] = m.add_node(f"host{host}:nic0", "nic", host=host)
        links.append(m.connect(ids[cpu.name], ids["host0:nic0"], L.PCIE_GEN3_X16, L.PCIE_HOP / 2, "pcie"))
        nics = ["host0:nic0"]
    m.host_links.append(links)
    m.uplink.append({nic: m.connect(ids[nic], m.port_edge[host][k], net.bandwidth, net.latency / 2,
                                    net.kind) for k, nic in enumerate(nics)})
    m.local.update({cid: (host, tid) for tid, cid in ids.items()})
