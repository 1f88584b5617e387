"""A launch's options checked before any process starts: each mistake a ValueError that names it
and the fix, in the course language (the CLI prints it as one line, exit status 2)."""
from __future__ import annotations

import os

from sim.i18n import join_list, t

DEFAULT_MACHINE = "workstation-4gpu"
MAX_GPUS_PER_WORKER = 16          # the largest preset node has 8 (sim/cli/limits.py shows it)


def check_options(script, workers, chief=False, ps=0, machine=DEFAULT_MACHINE,
                  gpus_per_worker=None, fail_at=None):
    """Validate the options; a ValueError whose message names the mistake and the fix."""
    from sim.fabric.launch_machine import CLUSTER_PRESETS, gpus_per_host
    _count("--workers", workers, 1, 2)
    _count("--ps", ps, 0, 1)
    if gpus_per_worker is not None:
        _count("--gpus-per-worker", gpus_per_worker, 0, 2)
        if gpus_per_worker > MAX_GPUS_PER_WORKER:       # a huge count spins the tasks (F6)
            raise ValueError(t("cli_limits.out_of_range", flag="--gpus-per-worker",
                               value=gpus_per_worker, low=0, high=MAX_GPUS_PER_WORKER))
    if machine not in CLUSTER_PRESETS:
        raise ValueError(t("launch.unknown_machine", name=machine, known=join_list(CLUSTER_PRESETS)))
    have = gpus_per_host(machine)
    if gpus_per_worker is not None and gpus_per_worker > have and machine != "workstation-4gpu":
        raise ValueError(t("launch.too_many_gpus", gpus=gpus_per_worker, have=have, machine=machine))
    if not os.path.isfile(script):
        raise ValueError(t("launch.script_missing", path=str(script)))
    from sim.launch.waiting import notice_seconds
    notice_seconds()                     # SIM_LAUNCH_NOTICE_SECONDS, when set, is a number
    if fail_at is not None:
        task_type, task_id, step = fail_at
        count = {"chief": int(bool(chief)), "worker": workers, "ps": ps}.get(task_type, 0)
        if not (isinstance(task_id, int) and 0 <= task_id < count and isinstance(step, int) and step >= 1):
            raise ValueError(t("launch.bad_fail_at", value=f"{task_type}:{task_id}:{step}"))


def _count(option, value, minimum, example):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(t("launch.bad_count", option=option, minimum=minimum, value=value,
                           example=example))


def parse_fail_at(text):
    """``worker:1:3`` or ``1:3`` (worker 1, step 3) -> ("worker", 1, 3); ValueError otherwise."""
    parts = str(text).split(":")
    if len(parts) == 2:
        parts = ["worker"] + parts
    try:
        task_type, task_id, step = parts
        return task_type, int(task_id), int(step)
    except ValueError:
        raise ValueError(t("launch.bad_fail_at", value=text)) from None
