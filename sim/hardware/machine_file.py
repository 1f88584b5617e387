"""Machine files: one node (its GPUs, the links inside it, its NICs) and the network between
nodes, in TOML or JSON (docs/machine_files.md). The presets are such files
(``sim/hardware/data/machines/*.toml``, devices in ``data/devices.toml``), read by this reader.

``read_machine_file(path)`` -> ``NodeSpec``; ``NodeSpec.build()`` -> a ``Machine`` of one node;
``cluster(spec, nodes, network)`` makes clusters of it. Every mistake is a ``ValueError`` of one
line naming the file and the field (``gpu.count``) and how to fix it. TOML is read by the
standard library's ``tomllib`` (Python 3.11+) or, on 3.10, by ``tomli``, the library it came from.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from sim.i18n import join_list, t

DATA = Path(__file__).with_name("data")
DTYPES = ("float64", "float32", "tfloat32", "float16", "bfloat16")
GiB = 2**30
DEVICE_FIELDS = ("type", "model", "count", "peak_tflops", "tensor", "memory_gib", "memory_gbs",
                 "sms", "source")
NODE_FIELDS = ("topology", "pcie_gbs", "uplink_gbs", "switches", "nvlinks", "nvlink_gbs",
               "socket_gbs", "nvlink_pairs", "nics")
NETWORK_FIELDS = ("name", "line_rate_gbps", "transport", "latency_us", "single_stream_gbps",
                  "socket_threads")
TOP_FIELDS = ("name", "description", "gpu", "cpu", "node", "network", "fabric")


def _toml():
    try:
        import tomllib
    except ModuleNotFoundError:                  # Python 3.10
        import tomli as tomllib
    return tomllib


def _fail(where: str, field: str, key: str, **kw):
    raise ValueError(t("machine_file.mistake", file=where, field=field,
                       problem=t(f"machine_file.{key}", **kw)))


def load(path) -> dict:
    """The file's tables (TOML by default, JSON when it ends in .json); one-line errors."""
    p = Path(path)
    where = p.name
    try:
        text = p.read_text("utf-8")
    except FileNotFoundError:
        _fail(where, "-", "not_found", path=str(path))
    except (OSError, UnicodeDecodeError) as err:
        _fail(where, "-", "unreadable", error=str(err).splitlines()[0])
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else _toml().loads(text)
    except ValueError as err:                    # TOMLDecodeError and JSONDecodeError are ValueErrors
        _fail(where, "-", "syntax", error=str(err).splitlines()[0])
    if not isinstance(data, dict):
        _fail(where, "-", "want_table")
    return data


def _number(where, field, value, low=0.0, strict=True, whole=False):
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and (value > low if strict else value >= low) and (not whole or float(value).is_integer())
    if not ok:
        shown = json.dumps(value, default=str)
        if whole:
            _fail(where, field, "want_int", value=shown, low=int(low) + (1 if strict else 0))
        _fail(where, field, "want_number" if strict else "want_number_min", value=shown, low=low)
    return int(value) if whole else float(value)


def _text(where, field, value):
    if not isinstance(value, str) or not value.strip():
        _fail(where, field, "want_text", value=json.dumps(value, default=str))
    return value.strip()


def _table(where, field, value, allowed):
    if not isinstance(value, dict):
        _fail(where, field, "want_section", value=json.dumps(value, default=str))
    for key in value:
        if key not in allowed:
            _fail(where, f"{field}.{key}" if field else key, "unknown_field", known=join_list(allowed))
    return value


def device_spec(where: str, field: str, table: dict, catalogue: dict | None = None):
    """A ``DeviceSpec`` from a ``[gpu]``/``[cpu]`` table: a known ``model``, its numbers, or both
    (the numbers then replace the model's)."""
    from sim.hardware.devices import DeviceSpec
    _table(where, field, table, DEVICE_FIELDS)
    base = None
    if "model" in table:
        model = _text(where, f"{field}.model", table["model"])
        base = (catalogue or {}).get(model)
        numbers = any(k in table for k in ("peak_tflops", "memory_gib", "memory_gbs"))
        if base is None and not numbers:
            _fail(where, f"{field}.model", "unknown_model", value=model, known=join_list(catalogue or {}))
    else:
        model = None
    kind = _text(where, f"{field}.type", table.get("type", base.device_type if base else
                                                    ("CPU" if field == "cpu" else "GPU"))).upper()
    if kind not in ("GPU", "CPU", "TPU"):
        _fail(where, f"{field}.type", "want_choice", value=kind, known="GPU, CPU, TPU")
    if "peak_tflops" in table:
        peaks = _table(where, f"{field}.peak_tflops", table["peak_tflops"], DTYPES)
        if not peaks:
            _fail(where, f"{field}.peak_tflops", "want_peaks", known=join_list(DTYPES))
        flops = {k: _number(where, f"{field}.peak_tflops.{k}", v) * 1e12 for k, v in peaks.items()}
    elif base is not None:
        flops = dict(base.peak_flops)
    else:
        _fail(where, f"{field}.peak_tflops", "missing", example="{ float32 = 19.5 }")
    if "float32" not in flops:
        _fail(where, f"{field}.peak_tflops.float32", "missing", example="float32 = 19.5")
    tensor = table.get("tensor", list(base.tensor_dtypes) if base else [])
    if not isinstance(tensor, list) or any(d not in flops for d in tensor):
        _fail(where, f"{field}.tensor", "want_tensor", value=json.dumps(tensor, default=str),
              known=join_list(flops))

    def pick(key, scale, default):
        if key in table:
            return _number(where, f"{field}.{key}", table[key]) * scale
        if base is not None:
            return default
        _fail(where, f"{field}.{key}", "missing", example=f"{key} = 16")

    memory = pick("memory_gib", GiB, base and base.memory_bytes)
    bandwidth = pick("memory_gbs", 1e9, base and base.memory_bandwidth)
    sms = _number(where, f"{field}.sms", table["sms"], whole=True) if "sms" in table else (
        base.sms if base else 0)
    source = table.get("source", base.source if base else f"machine file {where}")
    return DeviceSpec(model or f"{kind}-{where}", kind, MappingProxyType(flops), memory, bandwidth,
                      str(source), tuple(tensor), sms)


@lru_cache(maxsize=1)
def read_device_catalogue() -> dict:
    """Every device model of data/devices.toml, checked as a machine file's devices are."""
    data = load(DATA / "devices.toml")
    out = {}
    for model, table in data.items():
        spec = device_spec("devices.toml", model, {"model": model, **table}, {})
        out[model] = spec
    return out


@dataclass(frozen=True, eq=False)
class NodeSpec:
    """A checked machine file: one node and the network between copies of it."""

    name: str
    description: str
    gpu: object                  # DeviceSpec
    cpu: object
    count: int
    node: MappingProxyType
    network: object              # a sim.hardware.networks.Network, or None (no network given)
    path: str = ""
    fabric: object = None        # a sim.hardware.leaf_spine.LeafSpine, or None (one switch)

    def __str__(self) -> str:
        return self.name

    def build(self, gpus: int | None = None):
        """A ``Machine`` of this one node (``gpus`` replaces the file's GPU count)."""
        from sim.hardware import topologies
        from sim.hardware.machine import Machine
        count = self.count if gpus is None else gpus
        m = Machine(self.name, job="localhost", description=self.description)
        topologies.build(m, dict(self.node), self.cpu, self.gpu, count)
        return m


def _node(where: str, table: dict, count: int) -> dict:
    from sim.hardware.topologies import TOPOLOGIES
    node = dict(_table(where, "node", table, NODE_FIELDS))
    kind = node.setdefault("topology", "pcie-switch")
    if kind not in TOPOLOGIES:
        _fail(where, "node.topology", "want_choice", value=kind, known=join_list(TOPOLOGIES))
    defaults = {"pcie_gbs": 12.0, "switches": 1, "nics": 0, "socket_gbs": 6.0,
                "nvlinks": 1, "nvlink_gbs": 20.0}
    for key, default in defaults.items():
        whole = key in ("switches", "nics", "nvlinks")
        value = node.get(key, default)
        node[key] = _number(where, f"node.{key}", value, low=0 if key == "nics" else 0,
                            strict=key != "nics", whole=whole)
    if "uplink_gbs" in node:
        node["uplink_gbs"] = _number(where, "node.uplink_gbs", node["uplink_gbs"])
    if kind == "pcie-switch" and node["switches"] > count:
        _fail(where, "node.switches", "too_many_switches", value=node["switches"], gpus=count)
    if kind == "pcie-switch" and node["nics"]:
        _fail(where, "node.nics", "nics_not_here", value=node["nics"])
    if kind == "nvswitch" and node["nics"] not in (0, count):
        _fail(where, "node.nics", "rail_nics", value=node["nics"], gpus=count)
    if kind == "cube-mesh":
        if count != 8:
            _fail(where, "gpu.count", "cube_mesh_eight", value=count)
        pairs = node.get("nvlink_pairs")
        if not isinstance(pairs, list) or not pairs:
            _fail(where, "node.nvlink_pairs", "want_pairs", value=json.dumps(pairs, default=str))
        for i, pair in enumerate(pairs):
            good = isinstance(pair, list) and len(pair) == 3 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in pair) \
                and 0 <= pair[0] < 8 and 0 <= pair[1] < 8 and pair[0] != pair[1] and pair[2] >= 1
            if not good:
                _fail(where, f"node.nvlink_pairs[{i}]", "want_pairs", value=json.dumps(pair, default=str))
        node["nvlink_pairs"] = tuple(tuple(p) for p in pairs)
        if node["nics"] > 4:
            _fail(where, "node.nics", "want_at_most", value=node["nics"], most=4)
    return node


def _network(where: str, table):
    """A named network or the file's own, then the socket path's CPU limit if the file gives it."""
    _table(where, "network", table, NETWORK_FIELDS)
    return _socket_path(where, table, _wire(where, table))


def _wire(where: str, table):
    from sim.hardware import links as L
    from sim.hardware.networks import (NETWORKS, RDMA, RDMA_FRACTION, RDMA_GAP, TCP, TCP_FRACTION,
                                       TCP_GAP, Network)
    name = _text(where, "network.name", table.get("name", "custom"))
    custom = any(k in table for k in ("line_rate_gbps", "transport", "latency_us"))
    if not custom:
        if name not in NETWORKS:
            _fail(where, "network.name", "unknown_network", value=name, known=join_list(NETWORKS))
        return NETWORKS[name]
    if "line_rate_gbps" not in table:
        _fail(where, "network.line_rate_gbps", "missing", example="line_rate_gbps = 100")
    rate = _number(where, "network.line_rate_gbps", table["line_rate_gbps"]) * 1e9 / 8
    transport = _text(where, "network.transport", table.get("transport", RDMA)).lower()
    if transport not in (RDMA, TCP):
        _fail(where, "network.transport", "want_choice", value=transport, known="rdma, tcp")
    tcp = transport == TCP
    latency = _number(where, "network.latency_us", table["latency_us"], strict=False) * 1e-6 \
        if "latency_us" in table else (L.TCP_HOP if tcp else L.NET_HOP)
    return Network(name, rate, transport, latency, TCP_FRACTION if tcp else RDMA_FRACTION,
                   f"machine file {where}", TCP_GAP if tcp else RDMA_GAP)


def _socket_path(where: str, table, net):
    """``single_stream_gbps`` and ``socket_threads``: what one TCP connection carries on these hosts
    and how many cores drive NCCL's sockets (sim/hardware/networks.py); TCP only."""
    from dataclasses import replace
    from sim.hardware.networks import MAX_SOCKET_THREADS, TCP
    given = [k for k in ("single_stream_gbps", "socket_threads") if k in table]
    if not given:
        return net
    if net.transport != TCP:
        _fail(where, f"network.{given[0]}", "tcp_only", transport=net.transport)
    if "single_stream_gbps" not in table:
        _fail(where, "network.single_stream_gbps", "missing", example="single_stream_gbps = 20")
    gbps = _number(where, "network.single_stream_gbps", table["single_stream_gbps"])
    threads = _number(where, "network.socket_threads", table.get("socket_threads", 1), whole=True)
    if threads > MAX_SOCKET_THREADS:
        _fail(where, "network.socket_threads", "want_at_most", value=threads, most=MAX_SOCKET_THREADS)
    return replace(net.with_socket_path(gbps, threads),
                   source=f"{net.source}; socket path from machine file {where}")


def read_machine_file(path) -> NodeSpec:
    """The node and network of the machine file at ``path`` (module docstring)."""
    where = Path(path).name
    data = _table(where, "", load(path), TOP_FIELDS)
    catalogue = read_device_catalogue()
    if "gpu" not in data:
        _fail(where, "gpu", "missing", example='[gpu] model = "A100-SXM4-40GB"')
    gpu_table = _table(where, "gpu", data["gpu"], DEVICE_FIELDS)
    gpu = device_spec(where, "gpu", {k: v for k, v in gpu_table.items() if k != "count"}, catalogue)
    if gpu.device_type != "GPU":
        _fail(where, "gpu.type", "want_choice", value=gpu.device_type, known="GPU")
    count = _number(where, "gpu.count", gpu_table.get("count", 1), whole=True)
    cpu_table = data.get("cpu", {"model": "Xeon-Platinum-8380"})
    cpu = device_spec(where, "cpu", cpu_table, catalogue)
    node = _node(where, data.get("node", {}), count)
    network = _network(where, data["network"]) if "network" in data else None
    if "fabric" in data:
        from sim.hardware.fabric_table import read_fabric
        fabric = read_fabric(where, data["fabric"], node["nics"])
    else:
        fabric = None
    name = _text(where, "name", data.get("name", Path(path).stem))
    description = str(data.get("description", f"{count}x {gpu.model}, {node['topology']}"))
    return NodeSpec(name, description, gpu, cpu, count, MappingProxyType(node), network, str(path),
                    fabric)


@lru_cache(maxsize=None)
def preset_file(name: str) -> NodeSpec:
    """The machine file of the node preset ``name`` (data/machines/<name>.toml)."""
    return read_machine_file(DATA / "machines" / f"{name}.toml")
