"""Which GPUs take part, in the order the rings use them.

NCCL searches the node's NVLink graph for rings (``NVIDIA/nccl src/graph/search.cc``); on the
DGX-1's hybrid cube-mesh the numbering order 0..7 is NOT a ring of NVLinks (3 -> 4 has none,
collectives.md §4), so following it would send a ring hop over PCIe and QPI. Here each node's GPUs
are put in the first cycle of NVLink edges a depth-first search finds (numbering order when there
is none, as on PCIe-only or NVSwitch nodes where every order is as good).
"""
from __future__ import annotations


def nvlink_cycle(machine, gpus: list) -> list:
    """``gpus`` (one node's) reordered along a cycle of NVLink edges, or unchanged if none exists."""
    names = [g.name for g in gpus]
    index = {n: i for i, n in enumerate(names)}
    near = {i: set() for i in range(len(names))}
    for link in machine.links:
        if link.kind == "nvlink" and link.a in index and link.b in index:
            near[index[link.a]].add(index[link.b])
            near[index[link.b]].add(index[link.a])
    n = len(names)
    if n < 3:
        return list(gpus)
    path, seen = [0], {0}

    def extend() -> bool:
        if len(path) == n:
            return 0 in near[path[-1]]
        for j in sorted(near[path[-1]]):
            if j not in seen:
                path.append(j)
                seen.add(j)
                if extend():
                    return True
                path.pop()
                seen.discard(j)
        return False

    return [gpus[i] for i in path] if extend() else list(gpus)


def ring_ranks(machine, nodes: int | None = None, gpus: int | None = None, numbering: bool = False) -> list:
    """The first ``gpus`` GPUs of each of the first ``nodes`` hosts, each host's in NVLink ring
    order, or in numbering order with ``numbering`` (NCCL 1's ring, ``sim.scaleout.comm``)."""
    per_host: dict = {}
    for g in machine.gpus:
        per_host.setdefault(g.host, []).append(g)
    hosts = sorted(per_host)[:nodes] if nodes else sorted(per_host)
    template = getattr(machine, "template", None)
    first = per_host[hosts[0]][:gpus] if gpus else per_host[hosts[0]]
    local = (template.gpus if template else first)[:len(first)]
    order = local if numbering else nvlink_cycle(template or machine, local)
    pos = [[g.name for g in (template.gpus if template else first)].index(g.name) for g in order]
    return [per_host[h][i] for h in hosts for i in pos]
