"""The seed's way, written out: one command per node, each with its own TF_CONFIG, over SSH.

The multi-node tutorial (seed 003) types ``TF_CONFIG='{...}' python worker.py`` on each node,
the same "cluster" everywhere and the "task" changing. ``start_on_nodes.sh`` holds those very
lines (from ``sim.launch.tf_configs``, the launcher's own TF_CONFIG writer), each sent to its
node with ``ssh -n HOST '...' &``, then waited for: every node starts at once, as the seed asks.
"""
from __future__ import annotations

import shlex

from sim.launch import tf_configs

FILE = "start_on_nodes.sh"


def node_lines(plan):
    """[(host, task, the line typed on that host)], chief first."""
    chief = plan.hosts[0] if plan.chief else None
    workers = plan.hosts[1:] if plan.chief else plan.hosts
    cluster = tf_configs.describe(workers=list(workers), chief=chief, port=plan.port)
    out = []
    for task in tf_configs.tasks(cluster):
        host = task.address.rpartition(":")[0]
        line = tf_configs.shell_line(task, plan.script, plan.args, plan.python)
        if plan.workdir:
            line = f"cd {shlex.quote(plan.workdir)} && {line}"
        out.append((host, task, line))
    return out


def files(plan, written_by):
    lines = ["#!/bin/bash", f"# Written by: {written_by}",
             "# Run it where every node is reachable by SSH key (no password), with the script at"
             " the same path on each node.", "set -euo pipefail", "pids=()", ""]
    for host, task, line in node_lines(plan):
        lines.append(f"# {host}: {task.task_type} {task.index}")
        lines.append(f"ssh -n {shlex.quote(host)} {shlex.quote(line)} & pids+=($!)")
    lines += ["", "# Wait for every node; the script fails if one of them failed.",
              'for pid in "${pids[@]}"; do wait "$pid"; done', ""]
    return {FILE: "\n".join(lines)}
