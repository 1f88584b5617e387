"""The menu of all-reduce algorithms: one name, one schedule builder.

``build(name, p, length, ...)`` is the only place that maps a name (or TensorFlow's class name:
``ReductionToOneDevice``, ``HierarchicalCopyAllReduce``, ``NcclAllReduce``) to a builder, and
where machine facts (hosts for the two-level algorithms, NCCL's topology) reach the builders.
"""
from __future__ import annotations

import numpy as np

from sim.i18n import join_list, t

from . import nccl_model
from .halving_doubling import halving_doubling, recursive_doubling
from .hierarchical import hierarchical, hierarchical_reduce
from .hierarchical_copy import hierarchical_copy
from .nccl_tree import nccl_tree
from .reduce_to_one import reduce_to_one
from .ring import ring
from .schedule import Schedule
from .torus import torus
from .trees import binomial_tree, double_binary_tree

BUILDERS = {
    "reduce_to_one": reduce_to_one,
    "ring": ring,
    "recursive_doubling": recursive_doubling,
    "halving_doubling": halving_doubling,
    "binomial_tree": binomial_tree,
    "double_binary_tree": double_binary_tree,
    "nccl_tree": nccl_tree,
    "hierarchical": hierarchical,
    "hierarchical_reduce": hierarchical_reduce,
    "hierarchical_copy": hierarchical_copy,
    "torus": torus,
    "nccl": None,                      # chooses ring or nccl_tree (nccl_model)
}
ALGORITHMS = tuple(BUILDERS)
ALIASES = {
    "reductiontoonedevice": "reduce_to_one", "reduce-to-one": "reduce_to_one",
    "hierarchicalcopyallreduce": "hierarchical_copy", "hierarchical-copy": "hierarchical_copy",
    "ncclallreduce": "nccl", "tree": "nccl_tree", "rabenseifner": "halving_doubling",
    "rechd": "halving_doubling", "xring": "ring", "binomial": "binomial_tree",
    "double-binary-tree": "double_binary_tree", "2d-torus": "torus", "nccl-tree": "nccl_tree",
    "flat_tree": "double_binary_tree", "flat-tree": "double_binary_tree",
}


def canonical(name: str) -> str:
    """The registry name for ``name``; unknown names raise a ValueError listing the known ones."""
    key = str(name).strip()
    if key in BUILDERS:
        return key
    low = key.lower().replace(" ", "")
    if low in BUILDERS:
        return low
    if low in ALIASES:
        return ALIASES[low]
    if low.replace("-", "_") in BUILDERS:
        return low.replace("-", "_")
    raise ValueError(t("collectives.unknown_algorithm", name=name, known=join_list(ALGORITHMS)))


def hosts_of(machine, ranks) -> np.ndarray | None:
    """Ranks grouped by host as an ``(N, g)`` array, or None if hosts have unequal device counts."""
    devs = [machine.device(d) for d in ranks]
    by_host: dict = {}
    for r, d in enumerate(devs):
        by_host.setdefault(d.host, []).append(r)
    rows = list(by_host.values())
    if len({len(r) for r in rows}) != 1:
        return None
    return np.array(rows, dtype=np.int64)


def default_channels(machine, ranks) -> tuple[int, np.ndarray | None]:
    """NCCL's channel count for a ring across nodes, and the ranks grouped by node.

    On one node (or an unknown machine): ``(1, None)``, the single ring. Across nodes: one
    channel per NIC of a node (at most one per GPU of a node), so every NIC carries one channel
    out and one in (reference §1.3 channels, §1.6 flat ring "with NCCL's channels spread over
    all NICs").
    """
    if machine is None or ranks is None:
        return 1, None
    nodes = hosts_of(machine, ranks)
    if nodes is None or nodes.shape[0] < 2:
        return 1, None
    host = machine.device(ranks[0]).host
    nics = len(machine.nics(host))
    return max(1, min(nics, nodes.shape[1])), nodes


def _tree_options(machine, ranks, options: dict) -> dict:
    """NCCL's tree on a machine: ranks grouped by node, one channel per NIC across nodes."""
    c, nodes = default_channels(machine, ranks)
    out = dict(options)
    if nodes is not None:
        out.setdefault("channels", c)
        out.setdefault("nodes", nodes)
    return out


def _ring_options(machine, ranks, options: dict) -> dict:
    """Add the channel defaults for a ring on several nodes (unless the caller chose)."""
    if any(k in options for k in ("order", "bidirectional")):
        return options
    c, nodes = default_channels(machine, ranks)
    if nodes is None or c < 2 and "channels" not in options:
        return options
    out = dict(options)
    out.setdefault("channels", c)
    out.setdefault("nodes", nodes)
    return out


def nccl_choice(p: int, nbytes: int, machine=None, ranks=None) -> tuple[str, str, float]:
    """NCCL's (algorithm, protocol, predicted µs) for this size on this machine."""
    topo = (nccl_model.topology_of(machine, ranks) if machine is not None
            else nccl_model.NcclTopology(n_ranks=p))
    return nccl_model.choose(topo, nbytes)


def build(name: str, p: int, length: int, *, machine=None, ranks=None, itemsize: int = 4,
          **options) -> Schedule:
    """The schedule of algorithm ``name`` for ``p`` ranks and ``length`` elements."""
    name = canonical(name)
    p, length = int(p), int(length)
    if p < 1:
        raise ValueError(t("collectives.no_arrays"))
    if machine is not None and ranks is not None and name in ("hierarchical", "hierarchical_reduce") \
            and "nodes" not in options and "group_size" not in options:
        nodes = hosts_of(machine, ranks)
        if nodes is not None and nodes.shape[0] > 1:
            options["nodes"] = nodes
    if name == "ring":
        options = _ring_options(machine, ranks, options)
    if name == "nccl_tree":
        options = _tree_options(machine, ranks, options)
    if name == "nccl":
        alg, proto, us = nccl_choice(p, length * itemsize, machine, ranks)
        sched = (ring(p, length, **_ring_options(machine, ranks, {})) if alg == nccl_model.RING
                 else nccl_tree(p, length, **_tree_options(machine, ranks, options)))
        sched.name = "nccl"
        sched.info.update({"nccl_algorithm": alg, "nccl_protocol": proto, "nccl_predicted_us": us})
        return sched
    return BUILDERS[name](p, length, **options)
