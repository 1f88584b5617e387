"""The sizes the command-line tools accept, checked before any work starts.

Each limit keeps a run on a 2-core laptop to minutes and a few GB (the largest allowed run of
each tool was measured: ``allreduce --nodes 1024`` 23 s and 1.9 GB; ``scale --nodes 1,2048``
88 s and 1.9 GB; a launch forks one Python process of 50-250 MB per task). A value past a
limit is one line naming the flag, its range and the fix, exit status 2; ``--help`` lists the
ranges. Output files (``--plot``, ``--trace``) are checked here too, before computing.
"""
from __future__ import annotations

import math
import os

from sim.i18n import t
from sim.launch.launch_options import MAX_GPUS_PER_WORKER

ALLREDUCE_MAX_NODES = 1024
ALLREDUCE_MAX_BYTES = 2**50          # 1 PiB
ALLREDUCE_MAX_SIZES = 1000           # rows of the size sweep
SCALE_MAX_NODES = 2048
SCALE_MAX_COUNTS = 64                # entries of a --nodes or --gpus list
SCALE_MAX_PS = 1024
SCALE_MAX_BATCH = 65536
SCALE_MAX_BUCKET_MB = 1e6
SCALE_MAX_STRAGGLER_SPREAD = 1.0   # an exponential tail as long as the compute itself
LAUNCH_MAX_TASKS = 256               # chief + workers + ps
LAUNCH_MAX_GPUS = MAX_GPUS_PER_WORKER  # --gpus-per-worker (sim/launch/launch_options.py)
PLAN_MAX_NODES = 1024                # each --nodes entry (and --ps)
PLAN_MAX_GPUS = 16                   # each --gpus entry
PLAN_MAX_CANDIDATES = 1000           # rows of the grid: machines x nodes x networks x ...
PLAN_MAX_NODE_SUM = 1024             # nodes summed over the grid's parameter-server rows: a
                                     # 64-node PS candidate takes ~10 s, a collective one far less
PLAN_MAX_STEPS = 1e12                # --s-min
PLAN_MAX_BATCH = 2**24               # --b-crit, --base-batch
PLOT_FORMATS = (".png", ".svg", ".pdf")


def in_range(flag, value, low, high):
    """ValueError unless ``low <= value <= high``."""
    if not low <= value <= high:
        raise ValueError(t("cli_limits.out_of_range", flag=flag, value=_shown(value),
                           low=_shown(low), high=_shown(high)))


def _shown(value):
    return f"{value:g}" if isinstance(value, float) else str(value)


def size_count(minbytes, maxbytes, factor):
    """How many sizes ``sizes_between`` would make (at most), without making them."""
    return int(math.log(maxbytes / minbytes) / math.log(factor) + 1e-9) + 1


def check_sweep(minbytes, maxbytes, factor):
    """ValueError when the size sweep is longer than ALLREDUCE_MAX_SIZES rows."""
    n = size_count(minbytes, maxbytes, factor)
    if n > ALLREDUCE_MAX_SIZES:
        low = (maxbytes / minbytes) ** (1 / (ALLREDUCE_MAX_SIZES - 1))
        raise ValueError(t("cli_limits.too_many_sizes", n=n, most=ALLREDUCE_MAX_SIZES,
                           factor=f"{low:.4g}"))


def check_horovod_only(args) -> None:
    """``scale --cycle-ms`` / ``--negotiation`` are Horovod's settings: refused with another
    strategy, as ``--ps`` / ``--async`` are without the parameter-server one (F13)."""
    if args.strategy == "horovod":
        return
    for flag, value in (("--cycle-ms", args.cycle_ms), ("--negotiation", args.negotiation)):
        if value is not None:
            raise ValueError(t("cli_limits.needs_horovod", flag=flag, value=_shown(value),
                               strategy=args.strategy))


def check_output(flag, path, formats=None):
    """ValueError unless ``path`` names a file that can be written (its directory exists, it
    is not a directory, its extension is one of ``formats``)."""
    if not path or path == "''":
        raise ValueError(t("cli_limits.output_empty", flag=flag))
    if formats is not None and os.path.splitext(path)[1].lower() not in formats:
        raise ValueError(t("cli_limits.output_format", flag=flag, path=path,
                           formats=", ".join(formats)))
    if os.path.isdir(path):
        raise ValueError(t("cli_limits.output_is_directory", flag=flag, path=path))
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise ValueError(t("cli_limits.output_no_directory", flag=flag, path=path,
                           directory=directory))
    if not os.access(directory, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ValueError(t("cli_limits.output_unwritable", flag=flag, path=path))


def write_failed(flag, path, error):
    """The one line for an output file that could not be written after all."""
    return t("cli_limits.output_failed", flag=flag, path=path,
             reason=getattr(error, "strerror", None) or str(error))


def check_plan(args) -> None:
    """``sim plan``'s sizes (issue 36, F6), checked before the grid is made: each list entry in
    range, the grid's rows and their nodes bounded (a PS candidate's time grows with its nodes)."""
    lists = {"--machines": args.machines, "--nodes": args.nodes, "--networks": args.networks,
             "--gpus": args.gpus, "--strategies": args.strategies, "--ps": args.ps,
             "--batch-per-device": args.batch_per_device}
    for flag, values in lists.items():
        if len(values) > SCALE_MAX_COUNTS:
            in_range(f"{flag} (count)", len(values), 1, SCALE_MAX_COUNTS)
    for flag, values, high in (("--nodes", args.nodes, PLAN_MAX_NODES),
                               ("--ps", args.ps, PLAN_MAX_NODES),
                               ("--gpus", args.gpus, PLAN_MAX_GPUS),
                               ("--batch-per-device", args.batch_per_device, SCALE_MAX_BATCH),
                               ("--base-batch", args.base_batch or [], PLAN_MAX_BATCH)):
        for v in values:
            if v is not None:
                in_range(flag, v, 1, high)
    if args.s_min is not None:
        in_range("--s-min", args.s_min, 1, PLAN_MAX_STEPS)
    if args.b_crit is not None:
        in_range("--b-crit", args.b_crit, 1, PLAN_MAX_BATCH)
    rows = math.prod(len(v) for v in lists.values())
    ps_rows = sum(1 for s in args.strategies if str(s).startswith("ps"))   # the costly ones
    nodes = rows // len(args.nodes) // len(args.strategies) * ps_rows * sum(args.nodes)
    if rows > PLAN_MAX_CANDIDATES or nodes > PLAN_MAX_NODE_SUM:
        raise ValueError(t("cli_limits.plan_too_big", rows=rows, nodes=nodes,
                           most_rows=PLAN_MAX_CANDIDATES, most_nodes=PLAN_MAX_NODE_SUM))


def plan_limits_text() -> str:
    """The limits, as ``sim plan --help`` ends."""
    return t("cli_limits.plan_limits", nodes=PLAN_MAX_NODES, gpus=PLAN_MAX_GPUS,
             batch=SCALE_MAX_BATCH, rows=PLAN_MAX_CANDIDATES, node_sum=PLAN_MAX_NODE_SUM,
             counts=SCALE_MAX_COUNTS, steps=_shown(PLAN_MAX_STEPS), b_crit=PLAN_MAX_BATCH)
