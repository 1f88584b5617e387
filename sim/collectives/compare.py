"""Time several algorithms over several message sizes on one machine: rows for tables and plots.

The CLI (``python -m sim allreduce``), the lesson's comparison plot and widget, and the
"choose the fastest algorithm" exercise all call ``compare``, so they cannot disagree.
"""
from __future__ import annotations

from .algorithms import ALGORITHMS, build, canonical
from .cost import bandwidths
from .replay import replay, resolve_ranks


def machine_of(machine, nodes: int | None = None, network: str | None = None):
    """A Machine from a Machine or a preset name.

    ``nodes``/``network`` make a cluster of any single-node preset (``sim.hardware.node_clusters``);
    on a cluster preset ``nodes`` sets its size (``network`` rebuilds it on another network).
    """
    if not isinstance(machine, str):
        return machine
    from sim.hardware import cluster, preset, preset_names
    from sim.hardware.node_clusters import ALIASES, DEFAULT_NETWORK
    if machine not in preset_names():
        from sim.i18n import join_list, t
        raise ValueError(t("collectives.unknown_machine", name=machine, known=join_list(preset_names())))
    if network is not None:
        if nodes is None and machine in DEFAULT_NETWORK:
            from sim.i18n import t
            raise ValueError(t("cluster.network_without_nodes", network=network, machine=machine))
        return cluster(machine, nodes if nodes is not None else 2, network)
    if nodes is None:
        return preset(machine)
    if machine in DEFAULT_NETWORK:
        return cluster(machine, nodes) if nodes > 1 else preset(machine)
    if machine in ALIASES or machine == "cpu-cluster":
        return preset(machine, nodes=nodes)
    return cluster(machine, nodes)          # the node cannot be put on a network: says why


def sizes_between(minbytes: int, maxbytes: int, factor: float = 2, itemsize: int = 4) -> list:
    """nccl-tests' size sweep: ``minbytes``, ``minbytes·factor``, ... up to ``maxbytes``,
    each rounded down to whole elements (at least one)."""
    out, size = [], float(minbytes)
    while size <= maxbytes * (1 + 1e-12):
        b = max(itemsize, int(size) // itemsize * itemsize)
        if not out or b != out[-1]:
            out.append(b)
        if factor <= 1:
            break
        size *= factor
    return out


def time_one(algorithm: str, machine, nbytes: int, p: int | None = None, itemsize: int = 4,
             devices=None, **options) -> dict:
    """One row: the simulated time of one all-reduce of ``nbytes`` per device."""
    machine = machine_of(machine)
    ranks = resolve_ranks(machine, devices, p if p is not None else _count(machine))
    p = len(ranks)
    count = max(1, int(nbytes) // itemsize)
    sched = build(algorithm, p, count, machine=machine, ranks=ranks, itemsize=itemsize, **options)
    seconds = replay(sched, machine, count * itemsize, ranks)
    alg, bus = bandwidths(count * itemsize, seconds, p)
    row = {"size_bytes": count * itemsize, "count": count, "algorithm": canonical(algorithm),
           "time_us": seconds * 1e6, "algbw_gbps": alg / 1e9, "busbw_gbps": bus / 1e9}
    if "nccl_algorithm" in sched.info:
        row["nccl_choice"] = f"{sched.info['nccl_algorithm']}/{sched.info['nccl_protocol']}"
    return row


def _count(machine) -> int:
    from .replay import default_ranks
    return len(default_ranks(machine))


def compare(machine, sizes, algorithms=ALGORITHMS, p: int | None = None, itemsize: int = 4,
            devices=None) -> tuple[list, dict]:
    """Rows for every (size, algorithm) that applies; ``skipped`` maps an algorithm to why not."""
    machine = machine_of(machine)
    rows, skipped = [], {}
    for name in algorithms:
        name = canonical(name)
        for size in sizes:
            try:
                rows.append(time_one(name, machine, size, p, itemsize, devices))
            except ValueError as err:
                skipped[name] = str(err)
                break
    return rows, skipped


def fastest(rows: list, size_bytes: int) -> dict | None:
    """The row of least time at ``size_bytes`` (ties: the first algorithm in menu order)."""
    cand = [r for r in rows if r["size_bytes"] == size_bytes]
    return min(cand, key=lambda r: r["time_us"]) if cand else None
