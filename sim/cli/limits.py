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

ALLREDUCE_MAX_NODES = 1024
ALLREDUCE_MAX_BYTES = 2**50          # 1 PiB
ALLREDUCE_MAX_SIZES = 1000           # rows of the size sweep
SCALE_MAX_NODES = 2048
SCALE_MAX_COUNTS = 64                # entries of a --nodes or --gpus list
SCALE_MAX_PS = 1024
SCALE_MAX_BATCH = 65536
SCALE_MAX_BUCKET_MB = 1e6
LAUNCH_MAX_TASKS = 256               # chief + workers + ps
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


def check_output(flag, path, formats=None):
    """ValueError unless ``path`` names a file that can be written (its directory exists, it
    is not a directory, its extension is one of ``formats``)."""
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
