"""``python -m sim scale``: will this model scale on this cluster? Step time, samples/s and
scaling efficiency per cluster size, simulated from the model's description (``sim.scaleout``).

    python -m sim scale --model resnet50 --machine dgx1-p100 --nodes 1,2,4,8 --network 25gbe
    python -m sim scale --machine-file my_node.toml --precision mixed_float16

``--machine-file`` reads the learner's own node (docs/machine_files.md) instead of a preset;
``--precision`` is the Keras policy the step computes in (``sim.workloads.roofline``).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import unicodedata

from sim.cli import limits
from sim.cli.list_flags import LIST, whole_numbers
from sim.i18n import join_list, t
from sim.scaleout.comm import STRATEGIES

MACHINE_NODES = ("dgx1-p100", "pascal-pcie-4gpu", "big-basin", "workstation-4gpu", "dgx1-v100",
                 "dgx-a100", "dgx-h100")


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (no usage block) and exit status 2."""

    def error(self, message):
        self.exit(2, t("scale.cli_error", message=message) + "\n")


def _counts(flag: str):
    return whole_numbers(flag, "scale.bad_list")


def parser() -> argparse.ArgumentParser:
    from sim.hardware.networks import network_names
    from sim.workloads import workload_names
    ap = _Parser(prog="python -m sim scale", description=t("scale.cli_help"))
    ap.add_argument("--model", default="resnet50", help=", ".join(workload_names()))
    from sim.workloads.roofline import DEFAULT_PRECISION, PRECISIONS
    ap.add_argument("--machine", default="dgx1-p100", help="one node: " + ", ".join(MACHINE_NODES))
    ap.add_argument("--machine-file", default=None, metavar="FILE.toml",
                    help="your own node and network (TOML or JSON, docs/machine_files.md); "
                         "replaces --machine")
    ap.add_argument("--precision", default=DEFAULT_PRECISION, metavar="|".join(PRECISIONS),
                    help=f"the Keras policy the step computes in (default {DEFAULT_PRECISION}: "
                         "TensorFlow's float32, TF32 on Ampere and newer)")
    ap.add_argument("--nodes", type=_counts("--nodes"), default=[1, 2, 4, 8, 16], **LIST,
                    help=f"cluster sizes, e.g. 1,2,4,8 (each 1 to {limits.SCALE_MAX_NODES}, "
                         f"at most {limits.SCALE_MAX_COUNTS} of them)")
    ap.add_argument("--network", default=None, help=", ".join(network_names()))
    ap.add_argument("--gpus", type=_counts("--gpus"), default=None, **LIST,
                    help="devices used on each node (a list sweeps them)")
    ap.add_argument("--strategy", default="nccl", choices=STRATEGIES)
    ap.add_argument("--ps", type=int, default=None,
                    help=f"parameter-server tasks, 1 to {limits.SCALE_MAX_PS} (default 1; "
                         "--strategy parameter-server only)")
    ap.add_argument("--async", dest="sync", action="store_false",
                    help="parameter servers: asynchronous updates (--strategy parameter-server only)")
    ap.add_argument("--batch-per-device", type=int, default=64,
                    help=f"examples per device and step, 1 to {limits.SCALE_MAX_BATCH}")
    ap.add_argument("--bucket-mb", type=float, default=None,
                    help="gradient pack / fusion buffer size in MB, 0 to "
                         f"{limits.SCALE_MAX_BUCKET_MB:g} (default: the strategy's framework's)")
    ap.add_argument("--no-overlap", dest="overlap", action="store_false", default=None,
                    help="reduce every gradient after the backward pass")
    ap.add_argument("--overlap", dest="overlap", action="store_true",
                    help="reduce each pack as soon as it is ready (what overlapping would gain)")
    ap.add_argument("--cycle-ms", type=float, default=None, help="Horovod's HOROVOD_CYCLE_TIME")
    ap.add_argument("--straggler-spread", type=float, default=None, metavar="FRACTION",
                    help="each GPU's compute is 1 + Exp(FRACTION) computes, drawn each step, so a "
                         "synchronous step waits for the slowest (e.g. 0.015; default: identical GPUs)")
    ap.add_argument("--single-stream-gbps", type=float, default=None, metavar="GBPS",
                    help="TCP networks: what one connection carries on your hosts (iperf3 -P 1), "
                         "so the CPU's socket path can cap a NIC below its line rate (default: no cap)")
    ap.add_argument("--socket-threads", type=int, default=None, metavar="N",
                    help="with --single-stream-gbps: cores driving NCCL's sockets "
                         "(NCCL_SOCKET_NTHREADS; default 1)")
    ap.add_argument("--no-contention", dest="contention", action="store_false",
                    help="compute is not slowed by the SMs of overlapping NCCL collectives")
    ap.add_argument("--negotiation", default=None, choices=("cache", "gather"),
                    help="Horovod: response cache (since 0.17) or gather to rank 0 (before)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--plot", default=None, metavar="FILE.png",
                    help="draw the scaling curve (" + ", ".join(limits.PLOT_FORMATS) + ")")
    ap.add_argument("--trace", default=None, metavar="FILE.json",
                    help="Chrome/Perfetto trace of one step on the largest cluster")
    return ap


def check_arguments(args) -> None:
    """Raise a ValueError naming the first argument that cannot work, and its fix."""
    from sim.hardware import preset, read_machine_file
    from sim.hardware.networks import network
    from sim.workloads import workload
    from sim.workloads.roofline import check_precision
    workload(args.model)
    check_precision(args.precision)
    if args.network is not None:
        network(args.network)
    if args.machine_file is not None:
        args.machine = read_machine_file(args.machine_file)
    elif args.machine not in MACHINE_NODES:
        raise ValueError(t("scale.bad_machine", name=args.machine, known=join_list(MACHINE_NODES)))
    if args.socket_threads is not None and args.single_stream_gbps is None:
        raise ValueError(t("scale.socket_threads_alone", value=args.socket_threads))
    if args.single_stream_gbps is not None:
        args.network = network(network_name(args)).with_socket_path(
            args.single_stream_gbps, 1 if args.socket_threads is None else args.socket_threads)
    if args.ps is not None and args.ps < 1:
        raise ValueError(t("scale.bad_ps", value=args.ps))
    if args.batch_per_device < 1:
        raise ValueError(t("scale.bad_batch", value=args.batch_per_device))
    if args.bucket_mb is not None and not (math.isfinite(args.bucket_mb) and args.bucket_mb >= 0):
        raise ValueError(t("scale.bad_bucket", value=args.bucket_mb))
    if args.cycle_ms is not None and not (math.isfinite(args.cycle_ms) and args.cycle_ms >= 0):
        raise ValueError(t("scale.bad_cycle", value=args.cycle_ms))
    _check_sizes(args)
    if args.plot is not None:
        limits.check_output("--plot", args.plot, limits.PLOT_FORMATS)
    if args.trace is not None:
        limits.check_output("--trace", args.trace or "''")
    per_node = args.machine.count if args.machine_file else len(preset(args.machine).gpus)
    if args.gpus and max(args.gpus) > per_node:
        raise ValueError(t("scale.bad_gpus", value=max(args.gpus), most=per_node, machine=args.machine))


def _check_sizes(args) -> None:
    """The limits of sim/cli/limits.py, and flags that only the parameter-server strategy reads."""
    for flag, values in (("--nodes", args.nodes), ("--gpus", args.gpus or [])):
        if len(values) > limits.SCALE_MAX_COUNTS:
            limits.in_range(f"{flag} (count)", len(values), 1, limits.SCALE_MAX_COUNTS)
    for n in args.nodes:
        limits.in_range("--nodes", n, 1, limits.SCALE_MAX_NODES)
    limits.in_range("--batch-per-device", args.batch_per_device, 1, limits.SCALE_MAX_BATCH)
    if args.bucket_mb is not None:
        limits.in_range("--bucket-mb", args.bucket_mb, 0.0, limits.SCALE_MAX_BUCKET_MB)
    if args.straggler_spread is not None:
        limits.in_range("--straggler-spread", args.straggler_spread, 0.0, limits.SCALE_MAX_STRAGGLER_SPREAD)
    if args.strategy != "parameter-server":
        if args.ps is not None:
            raise ValueError(t("cli_limits.ps_needs_strategy", value=args.ps))
        if not args.sync:
            raise ValueError(t("cli_limits.async_needs_ps", strategy=args.strategy))
    limits.check_horovod_only(args)
    if args.ps is not None:
        limits.in_range("--ps", args.ps, 1, limits.SCALE_MAX_PS)
    else:
        args.ps = 1


def _print(text: str) -> None:
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()


COLUMN_WIDTHS = (7, 8, 14, 12, 11)


def _right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal columns (a CJK character takes two)."""
    shown = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return " " * max(0, width - shown) + text


def render_table(rows: list) -> str:
    """The rows as columns, numbers in the course language's format (pt: 1.234,5), and last the
    mechanisms that shaped each row's step (``sim.scaleout.mechanisms``)."""
    from sim.i18n import number
    from sim.scaleout.mechanisms import describe
    names = t("scale.cli_column_names").split("|")
    head = " ".join(_right(n, w) for n, w in zip(names, COLUMN_WIDTHS)) + "  " + t("scale.cli_mechanisms")
    lines = ["#" + head[1:] if head.startswith(" ") else head]
    for r in rows:
        cells = (str(r["nodes"]), str(r["devices"]), number(r["step_time_ms"], ",.1f"),
                 number(r["samples_per_s"], ",.1f"), number(r["efficiency"], ".1%"))
        line = " ".join(_right(c, w) for c, w in zip(cells, COLUMN_WIDTHS))
        lines.append(line + ("  " + describe(r["mechanisms"]) if r.get("mechanisms") else ""))
    return "\n".join(lines)


class _OutputFailed(Exception):
    pass


def _write_outputs(args, rows, network) -> None:
    """The --trace and --plot files (paths checked before computing; a write that still
    fails, e.g. into /proc, is one line)."""
    if args.trace:
        from sim.course.plots.scaleout import write_trace
        try:
            write_trace(rows[-1]["step"], args.trace)
        except OSError as err:
            raise _OutputFailed(limits.write_failed("--trace", args.trace, err)) from None
    for r in rows:
        r.pop("step", None)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        from sim.course.plots.scaleout import draw_scaling
        fig = draw_scaling(rows, title=t("scale.plot_title", model=args.model, machine=args.machine,
                                         network=network))
        try:
            fig.savefig(args.plot, dpi=100)
        except (OSError, ValueError) as err:
            raise _OutputFailed(limits.write_failed("--plot", args.plot, err)) from None


def network_name(args) -> str:
    """The network the run uses: ``--network``, else the machine file's, else the preset's own."""
    from sim.hardware.node_clusters import DEFAULT_NETWORK
    if args.network is not None:
        return getattr(args.network, "name", args.network)
    own = getattr(args.machine, "network", None)
    if own is not None:
        return own.name
    return "hdr-ib" if args.machine_file else DEFAULT_NETWORK.get(str(args.machine), "hdr-ib")


def _stragglers(spread):
    """``--straggler-spread m``: every GPU's compute is 1 + Exp(m) computes (None: identical)."""
    from sim.des import ComputeTime
    return None if not spread else ComputeTime(fixed=1.0, exponential=spread)


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        check_arguments(args)
    except ValueError as err:
        print(t("scale.cli_error", message=err), file=sys.stderr)
        return 2
    from sim.scaleout import scale
    network = network_name(args)
    rows = scale(args.model, args.machine, nodes=args.nodes, network=args.network, gpus=args.gpus,
                 strategy=args.strategy, ps=args.ps, batch_per_device=args.batch_per_device,
                 bucket_mb=args.bucket_mb, overlap=args.overlap, sync=args.sync,
                 keep_steps=bool(args.trace), cycle_ms=args.cycle_ms, negotiation=args.negotiation,
                 contention=args.contention, precision=args.precision,
                 stragglers=_stragglers(args.straggler_spread))
    try:
        _write_outputs(args, rows, network)
    except _OutputFailed as err:
        print(t("scale.cli_error", message=err), file=sys.stderr)
        return 2
    if args.json:
        from sim.scaleout.mechanisms import describe
        keys = ("nodes", "devices", "step_time_ms", "samples_per_s", "efficiency", "when", "precision")
        _print(json.dumps([{**{k: r[k] for k in keys}, "mechanisms": describe(r["mechanisms"])}
                           for r in rows], indent=1, ensure_ascii=False))
        return 0
    print(t("scale.cli_header", model=args.model, machine=args.machine, network=network,
            strategy=args.strategy))
    _print(render_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
