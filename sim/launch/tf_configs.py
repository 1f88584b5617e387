"""Write the TF_CONFIG of every task of a cluster, and the shell line that starts each one.

The multi-node tutorial writes them by hand: the same "cluster" on every machine, a "task"
that changes from machine to machine, then ``TF_CONFIG='...' python worker.py`` on each node.
Here::

    cluster = sim.launch.tf_configs.describe(workers=["10.1.10.58", "10.1.10.250"])
    sim.launch.tf_configs.print_commands(cluster, "worker.py")

prints the tutorial's two lines. The JSON is what real TensorFlow reads (keys sorted, one line).
``loopback(...)`` gives the same for tasks on this machine's loopback interface (the launcher).
"""
from __future__ import annotations

import json
import shlex
from typing import NamedTuple

from sim.distribute.tf_config import validate
from sim.launch.free_ports import free_ports

ORDER = ("chief", "worker", "ps", "evaluator")


class Task(NamedTuple):
    """One task: its job and index, its address, its TF_CONFIG (dict) and that as JSON text."""
    task_type: str
    index: int
    address: str
    config: dict
    json: str


def describe(workers, chief=None, ps=None, evaluator=None, port=12345):
    """The "cluster" object of TF_CONFIG.

    ``workers``/``ps``: a count, or a list of hosts or "host:port" addresses. ``chief``/
    ``evaluator``: None/False (none), True (one more local task), or a host or address.
    A host without a port gets ``port``; a count gives ``localhost`` tasks on consecutive
    ports from ``port``; a host named twice gets the next free port the second time.
    """
    wanted = {"chief": _one(chief), "worker": _many(workers, "workers"),
              "ps": _many(ps, "ps"), "evaluator": _one(evaluator)}
    taken, cluster = set(), {}
    next_local = [port]
    for job in ORDER:
        addresses = []
        for entry in wanted[job]:
            addresses.append(_address(entry, port, taken, next_local))
        if addresses:
            cluster[job] = addresses
    return cluster


def _one(value):
    if value is None or value is False:
        return []
    return [None] if value is True else [value]


def _many(value, name):
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, (int, list, tuple)):
        from sim.i18n import t
        raise TypeError(t("cluster.describe_count", name=name, value=repr(value)))
    if isinstance(value, int):
        if value < 0:
            from sim.i18n import t
            raise ValueError(t("cluster.describe_count", name=name, value=repr(value)))
        return [None] * value
    return list(value)


def _address(entry, port, taken, next_local):
    """``entry`` (None: a local task; a host; "host:port") as a free "host:port"."""
    if entry is None:
        while f"localhost:{next_local[0]}" in taken:
            next_local[0] += 1
        address = f"localhost:{next_local[0]}"
    elif ":" in str(entry):
        address = str(entry)
    else:
        p = port
        while f"{entry}:{p}" in taken:
            p += 1
        address = f"{entry}:{p}"
    taken.add(address)
    return address


def tf_config(cluster, task_type, index, rpc_layer=None):
    """The TF_CONFIG dict of one task (the evaluator's "cluster" holds only itself; the
    training tasks' clusters leave the evaluator out)."""
    if task_type == "evaluator":
        own = {"evaluator": list(cluster["evaluator"])}
    else:
        own = {job: list(addresses) for job, addresses in cluster.items() if job != "evaluator"}
    config = {"cluster": own, "task": {"type": task_type, "index": index}}
    if rpc_layer:
        config["rpc_layer"] = rpc_layer
    validate(config)
    return config


def tasks(cluster, rpc_layer=None):
    """Every task of ``cluster`` with its TF_CONFIG: chief, workers, ps, then the evaluator."""
    out = []
    for job in ORDER:
        for index, address in enumerate(cluster.get(job, [])):
            config = tf_config(cluster, job, index, rpc_layer)
            out.append(Task(job, index, address, config, to_json(config)))
    return out


def to_json(config):
    """One line, keys sorted, as the tutorials print TF_CONFIG."""
    return json.dumps(config, sort_keys=True)


def shell_line(task, script="train.py", args=(), python="python"):
    """``TF_CONFIG='{...}' python train.py``: the command a machine runs (shell-quoted)."""
    words = [python, script, *map(str, args)]
    return f"TF_CONFIG={shlex.quote(task.json)} " + " ".join(shlex.quote(w) for w in words)


def shell_lines(cluster, script="train.py", args=(), python="python", rpc_layer=None):
    """One shell line per task, in the order of ``tasks``."""
    return [shell_line(task, script, args, python) for task in tasks(cluster, rpc_layer)]


def print_commands(cluster, script="train.py", args=(), python="python", rpc_layer=None):
    """Print, per machine, a comment naming it and the line that starts its task there."""
    from sim.i18n import t
    for task in tasks(cluster, rpc_layer):
        host = task.address.rpartition(":")[0] or task.address
        print(t("cluster.on_machine", host=host, task_type=task.task_type, index=task.index))
        print(shell_line(task, script, args, python))


def loopback(workers, chief=False, ps=0, evaluator=False, ports=None):
    """Tasks on 127.0.0.1 for the launcher: on ``ports`` (one per task, in the order chief,
    workers, ps, evaluator) or on ports the system reports free now."""
    count = bool(chief) + int(workers) + int(ps) + bool(evaluator)
    ports = list(ports) if ports is not None else free_ports(count)
    if len(ports) != count or len(set(ports)) != count:
        from sim.i18n import t
        raise ValueError(t("cluster.loopback_ports", count=count, ports=ports))
    addresses = iter(f"127.0.0.1:{p}" for p in ports)
    cluster = {}
    for job, n in (("chief", bool(chief)), ("worker", int(workers)), ("ps", int(ps)),
                   ("evaluator", bool(evaluator))):
        if n:
            cluster[job] = [next(addresses) for _ in range(n)]
    return tasks(cluster)
