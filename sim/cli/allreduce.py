"""``python -m sim allreduce``: an nccl-tests-style table of simulated all-reduce times.

Columns follow nccl-tests' ``all_reduce_perf`` (NVIDIA/nccl-tests): size (B), count (elements),
type, redop, time (us), algbw = size/time, busbw = algbw·2(n-1)/n (doc/PERFORMANCE.md,
reference §2). ``--algorithm all`` puts every algorithm side by side; ``--json`` prints the rows.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys

from sim.cli import limits
from sim.i18n import t

from sim.collectives.algorithms import ALGORITHMS, canonical
from sim.collectives.compare import compare, machine_of, sizes_between
from sim.collectives.replay import default_ranks
from sim.hardware.networks import network_names

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_size(text: str) -> int:
    """``8``, ``64K``, ``1M``, ``1G`` (powers of 1024, as nccl-tests reads them)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(t("collectives.bad_size", text=text))
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (no usage block) and exit status 2."""

    def error(self, message):
        self.exit(2, t("cluster.cli_error", message=message) + "\n")


def parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="python -m sim allreduce", description=t("collectives.cli_help"))
    ap.add_argument("--machine", default="dgx-a100", help="preset name (sim.hardware.preset_names())")
    ap.add_argument("--algorithm", default="nccl", help="one of: all, " + ", ".join(ALGORITHMS))
    ap.add_argument("-b", "--minbytes", type=parse_size, default=parse_size("8"),
                    help="smallest size (8, 64K, 1M...; from 1 B)")
    ap.add_argument("-e", "--maxbytes", type=parse_size, default=parse_size("128M"),
                    help="largest size (up to 1024T = 2**50 B)")
    ap.add_argument("-f", "--factor", type=float, default=2.0,
                    help=f"step between sizes (> 1; at most {limits.ALLREDUCE_MAX_SIZES} sizes)")
    ap.add_argument("-g", "--ngpus", type=int, default=None, help="devices taking part (default: all)")
    ap.add_argument("--nodes", type=int, default=None,
                    help="nodes: a cluster of the machine (any single-node preset or -cluster "
                         f"preset), 1 to {limits.ALLREDUCE_MAX_NODES}")
    ap.add_argument("--network", default=None,
                    help="network between the nodes: " + ", ".join(network_names()))
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    return ap


def check_arguments(args) -> None:
    """Raise a ValueError naming the first argument that cannot work, and its fix."""
    if args.minbytes < 1:
        raise ValueError(t("cluster.bad_minbytes", value=args.minbytes))
    if args.minbytes > args.maxbytes:
        raise ValueError(t("cluster.bad_range", minbytes=args.minbytes, maxbytes=args.maxbytes))
    if not (math.isfinite(args.factor) and args.factor > 1):
        raise ValueError(t("cluster.bad_factor", value=args.factor))
    if args.nodes is not None and args.nodes < 1:
        raise ValueError(t("cluster.bad_nodes", value=args.nodes))
    if args.nodes is not None:
        limits.in_range("--nodes", args.nodes, 1, limits.ALLREDUCE_MAX_NODES)
    limits.in_range("-e/--maxbytes", args.maxbytes, 1, limits.ALLREDUCE_MAX_BYTES)
    limits.check_sweep(args.minbytes, args.maxbytes, args.factor)


SHORT = {"reduce_to_one": "r2one", "ring": "ring", "recursive_doubling": "rdouble",
         "halving_doubling": "halvdbl", "binomial_tree": "binom", "double_binary_tree": "dbtree", "nccl_tree": "ncctree",
         "hierarchical": "hier", "hierarchical_reduce": "hier_red", "hierarchical_copy": "hcopy",
         "torus": "torus", "nccl": "nccl"}


def render_table(rows: list, algorithms: list) -> str:
    """nccl-tests layout. One algorithm: time, algbw, busbw. Several: the time of each
    (columns named as in the legend line), then the fastest and its busbw."""
    by_size: dict = {}
    for r in rows:
        by_size.setdefault((r["size_bytes"], r["count"]), {})[r["algorithm"]] = r
    single = len(algorithms) == 1
    head1 = f"#{'size':>11} {'count':>12} {'type':>6} {'redop':>5}"
    head2 = f"#{'(B)':>11} {'(elements)':>12} {'':>6} {'':>5}"
    lines = []
    if single:
        head1 += f" {'time':>10} {'algbw':>8} {'busbw':>8}"
        head2 += f" {'(us)':>10} {'(GB/s)':>8} {'(GB/s)':>8}"
        if algorithms[0] == "nccl":
            head1 += f" {'choice':>13}"
            head2 += f" {'':>13}"
    else:
        lines.append("# time (us): " + ", ".join(f"{SHORT.get(a, a)}={a}" for a in algorithms))
        for name in algorithms:
            head1 += f" {SHORT.get(name, name)[:9]:>9}"
            head2 += f" {'(us)':>9}"
        head1 += f" {'fastest':>8} {'busbw':>7}"
        head2 += f" {'':>8} {'(GB/s)':>7}"
    lines += [head1, head2]
    for (size, count), cols in sorted(by_size.items()):
        line = f"{size:>12} {count:>12} {'float':>6} {'sum':>5}"
        if single:
            r = cols[algorithms[0]]
            line += f" {r['time_us']:>10.2f} {r['algbw_gbps']:>8.2f} {r['busbw_gbps']:>8.2f}"
            if algorithms[0] == "nccl":
                line += f" {r.get('nccl_choice', ''):>13}"
        else:
            for name in algorithms:
                r = cols.get(name)
                line += f" {r['time_us']:>9.2f}" if r else f" {'-':>9}"
            best = min(cols.values(), key=lambda r: r["time_us"])
            line += f" {SHORT.get(best['algorithm'], best['algorithm']):>8} {best['busbw_gbps']:>7.2f}"
        lines.append(line)
    return "\n".join(lines)


def _print(text: str) -> None:
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:          # `| head` closed the pipe: not an error
        sys.stderr.close()


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        check_arguments(args)
        machine = machine_of(args.machine, args.nodes, args.network)
        algorithms = list(ALGORITHMS) if args.algorithm == "all" else [canonical(args.algorithm)]
        most = len(default_ranks(machine))
        if args.ngpus is not None and not 1 <= args.ngpus <= most:
            raise ValueError(t("cluster.bad_ngpus", value=args.ngpus, most=most, machine=machine.name))
    except ValueError as err:
        print(t("cluster.cli_error", message=err), file=sys.stderr)
        return 2
    p = args.ngpus if args.ngpus else most
    sizes = sizes_between(args.minbytes, args.maxbytes, args.factor)
    rows, skipped = compare(machine, sizes, algorithms, p=p)
    if args.json:
        keys = ("size_bytes", "algorithm", "time_us", "algbw_gbps", "busbw_gbps")
        _print(json.dumps([{k: r[k] for k in keys} for r in rows], indent=1))
        return 0
    print(t("collectives.cli_header", machine=machine.name, p=p,
            nodes=len({d.host for d in default_ranks(machine)[:p]})))
    for name, reason in skipped.items():
        print(t("collectives.cli_skip", algorithm=name, reason=reason))
    shown = [a for a in algorithms if a not in skipped]
    if shown:
        _print(render_table(rows, shown))
    if skipped and not shown:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
