"""A machine (or a cluster) as a topology graph: devices, switches, NICs and CPU roots as
nodes, full-duplex links as edges, and routing between any two devices.

Routing picks the path of least total latency (ties: fewer hops, then the order links were
added), never passing *through* a GPU (GPUs do not forward traffic; TPU chips and switches do).
Routes are cached: a schedule that repeats the same pairs pays for routing once.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from sim.i18n import t
from sim.hardware import names
from sim.hardware.devices import DEVICE_TYPES, Device, DeviceSpec, full_name
from sim.hardware.links import Link, check_link_numbers


@dataclass(frozen=True)
class Node:
    """A vertex of the topology: a device, or a switch / NIC / CPU root complex."""

    id: str
    kind: str           # "device", "switch", "nic", "cpu-root", "chip"
    host: int | None
    transit: bool       # can traffic pass through it?


class Machine:
    """Devices plus the links between them; build one with ``add_device`` and ``connect``.

    >>> m = Machine("two GPUs on PCIe")
    >>> g0, g1 = m.add_device("GPU", V100_PCIE), m.add_device("GPU", V100_PCIE)
    >>> m.connect(g0, g1, bandwidth=12e9, latency=1e-6, kind="pcie")
    """

    def __init__(self, name: str = "machine", job: str = "localhost", description: str = ""):
        self.name, self.job, self.description = name, job, description
        self.devices: list[Device] = []
        self.nodes: dict[str, Node] = {}
        self.links: list[Link] = []
        self._adj: dict[str, list[tuple[str, Link]]] = {}
        self._nics: dict[int, list[str]] = {}
        self._lookup: dict = {}
        self._routes: dict[tuple[str, str], list[tuple[Link, int]]] = {}
        self._multi_host = False
        self._counts: dict = {}
        self._device_set: set = set()

    # ---- building -------------------------------------------------------------------------
    def add_device(self, device_type: str, spec: DeviceSpec | None = None, *, host: int = 0,
                   peak_flops=None, memory_bytes=None, memory_bandwidth=None,
                   transit: bool | None = None) -> Device:
        """Add a device (next free index of its type on ``host``) and return it.

        ``transit``: may traffic between other nodes pass through it? Default: no for GPUs
        (they do not forward), yes for a CPU (its root complex does) and a TPU (ICI routes).
        """
        device_type = device_type.upper()
        if device_type not in DEVICE_TYPES:
            raise ValueError(t("hardware.bad_device_type", value=device_type,
                               known=", ".join(DEVICE_TYPES)))
        index = self._counts.get((host, device_type), 0)
        self._counts[(host, device_type)] = index + 1
        name = full_name(self.job, host, device_type, index)
        flops = dict(peak_flops if peak_flops is not None else (spec.peak_flops if spec else {}))
        dev = Device(
            name=name, short_name=f"/{device_type.lower()}:{index}", device_type=device_type,
            host=host, index=index, peak_flops=flops,
            memory_bytes=memory_bytes if memory_bytes is not None else (spec.memory_bytes if spec else 0.0),
            memory_bandwidth=memory_bandwidth if memory_bandwidth is not None else (
                spec.memory_bandwidth if spec else 0.0),
            model=spec.model if spec else "", job=self.job,
            tensor_dtypes=spec.tensor_dtypes if spec else (), sms=spec.sms if spec else 0)
        self.devices.append(dev)
        self._device_set.add(dev)
        self._add_node(Node(name, "device", host,
                            transit=(device_type != "GPU") if transit is None else transit))
        if host != 0 and not self._multi_host:
            self._multi_host = True
        self._lookup.clear()
        return dev

    def add_node(self, node_id: str, kind: str = "switch", host: int | None = None,
                 transit: bool = True) -> str:
        """Add a non-compute node (switch, NIC, CPU root complex, TPU chip) and return its id."""
        self._add_node(Node(node_id, kind, host, transit))
        if kind == "nic" and host is not None:
            self._nics.setdefault(host, []).append(node_id)
        return node_id

    def _add_node(self, node: Node) -> None:
        if node.id in self.nodes:
            raise ValueError(t("hardware.duplicate_node", node=node.id))
        self.nodes[node.id] = node
        self._adj[node.id] = []

    def connect(self, a, b, bandwidth: float, latency: float, kind: str = "link",
                count: int = 1) -> Link:
        """Join two nodes (devices, names or node ids) with ``count`` bonded links."""
        a_id, b_id = self._node_id(a), self._node_id(b)
        check_link_numbers(a_id, b_id, bandwidth, latency)
        link = Link(a_id, b_id, bandwidth * count, latency, kind, index=len(self.links))
        self.links.append(link)
        self._adj[a_id].append((b_id, link))
        self._adj[b_id].append((a_id, link))
        self._routes.clear()
        return link

    def _node_id(self, x) -> str:
        if isinstance(x, Device):
            return x.name
        if isinstance(x, str) and x in self.nodes:
            return x
        if isinstance(x, str) and x.startswith(("/", "GPU", "CPU", "TPU", "gpu", "cpu", "tpu")):
            return self.device(x).name
        raise ValueError(t("hardware.unknown_node", node=x, machine=self.name,
                           known=", ".join(list(self.nodes)[:12]) + (" ..." if len(self.nodes) > 12 else "")))

    # ---- looking up -----------------------------------------------------------------------
    @property
    def hosts(self) -> list[int]:
        return sorted({d.host for d in self.devices})

    def nics(self, host: int) -> list[str]:
        return list(self._nics.get(host, []))

    def devices_of(self, device_type: str = "GPU", host: int | None = None) -> list[Device]:
        return [d for d in self.devices if d.device_type == device_type.upper()
                and (host is None or d.host == host)]

    @property
    def gpus(self) -> list[Device]:
        return self.devices_of("GPU")

    def device(self, name) -> Device:
        """The device called ``name`` (full, short or bare name, a Device, or an index)."""
        try:
            return self._lookup[name]
        except (KeyError, TypeError):
            pass
        dev = self._find(name)
        try:
            self._lookup[name] = dev
        except TypeError:
            pass
        return dev

    def _find(self, name) -> Device:
        if isinstance(name, Device):
            if name in self._device_set:
                return name
            name = name.name
        if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(self.devices):
            return self.devices[name]
        fields = names.parse(name) if isinstance(name, str) else None
        found = [d for d in self.devices if fields and names.matches(d, fields)]
        if len(found) == 1:
            return found[0]
        from sim.i18n import join_list
        known = [self.display_name(d) for d in self.devices]
        shown = join_list(known[:16]) + (f" ... ({len(known)})" if len(known) > 16 else "")
        if len(found) > 1:
            raise ValueError(t("hardware.ambiguous_device", name=name, machine=self.name,
                               known=join_list(d.name for d in found[:8])))
        raise ValueError(t("hardware.unknown_device", name=name, machine=self.name, known=shown))

    def display_name(self, device: Device) -> str:
        """``/gpu:0`` on one host, ``/task:1/gpu:0`` on a cluster (short and unambiguous)."""
        if self._multi_host:
            return f"/task:{device.host}{device.short_name}"
        return device.short_name

    # ---- routing --------------------------------------------------------------------------
    def route(self, src, dst) -> list[tuple[Link, int]]:
        """The hops from ``src`` to ``dst`` as ``(link, direction)``; direction 0 means a->b."""
        s, d = self._endpoint(src), self._endpoint(dst)
        key = (s, d)
        hops = self._routes.get(key)
        if hops is None:
            hops = self._routes[key] = self._shortest(s, d)
        return hops

    def _endpoint(self, x) -> str:
        if isinstance(x, str) and x in self.nodes:
            return x
        return self.device(x).name

    def _shortest(self, s: str, d: str) -> list[tuple[Link, int]]:
        """Bidirectional Dijkstra on (latency, hops): searches from both ends and stops when
        the two frontiers cannot improve the best meeting point (a cluster of 1024 GPUs
        would otherwise explore every NIC behind the core switch for each route)."""
        if s == d:
            return []
        nodes, adj, roots = self.nodes, self._adj, (s, d)
        dist: tuple[dict, dict] = ({s: (0.0, 0)}, {d: (0.0, 0)})
        prev: tuple[dict, dict] = ({}, {})
        heaps = ([(0.0, 0, 0, s)], [(0.0, 0, 0, d)])
        best, meet, order = None, None, 1
        while heaps[0] and heaps[1]:
            f, b = heaps[0][0], heaps[1][0]
            if best is not None and (f[0] + b[0], f[1] + b[1]) >= best:
                break
            side = 0 if f[:2] <= b[:2] else 1
            lat, hops, _, u = heapq.heappop(heaps[side])
            if (lat, hops) > dist[side][u] or (u != roots[side] and not nodes[u].transit):
                continue
            mine, other = dist[side], dist[1 - side]
            for v, link in adj[u]:
                cand = (lat + link.latency, hops + 1)
                known = mine.get(v)
                if known is not None and cand >= known:
                    continue
                mine[v] = cand
                prev[side][v] = (u, link)
                heapq.heappush(heaps[side], (cand[0], cand[1], order, v))
                order += 1
                there = other.get(v)
                if there is not None and (v in roots or nodes[v].transit):
                    total = (cand[0] + there[0], cand[1] + there[1])
                    if best is None or total < best:
                        best, meet = total, v
        if meet is None:
            raise ValueError(t("hardware.no_route", src=s, dst=d, machine=self.name))
        path = []
        v = meet
        while v != s:
            u, link = prev[0][v]
            path.append((link, 0 if link.a == u else 1))
            v = u
        path.reverse()
        v = meet
        while v != d:
            u, link = prev[1][v]
            path.append((link, 0 if link.a == v else 1))
            v = u
        return path

    def route_latency(self, src, dst) -> float:
        return sum(link.latency for link, _ in self.route(src, dst))

    def route_bandwidth(self, src, dst) -> float:
        hops = self.route(src, dst)
        return min(link.bandwidth for link, _ in hops) if hops else float("inf")

    def check_connected(self) -> None:
        """Raise if some device cannot reach device 0 (and back)."""
        for dev in self.devices[1:]:
            self.route(self.devices[0], dev)
            self.route(dev, self.devices[0])

    def __repr__(self) -> str:
        return t("hardware.machine_repr", name=self.name, devices=len(self.devices),
                 links=len(self.links), hosts=len(self.hosts))
