"""TF_CONFIG addresses: each task's ``"host:port"`` checked before a multi-worker start.

TensorFlow passes the address to its gRPC server, which fails when it binds (a port of 70000,
0, -5 or "abc", no port, an empty address); the simulator binds nothing, so it says what is
wrong at once: a host (a name, an IPv4 address, or an IPv6 address in brackets, ``[::1]``)
and a port from 1 to 65535, each ``ValueError`` naming the task and showing a corrected
TF_CONFIG.
"""
from __future__ import annotations

import copy

from sim.distribute.cluster_errors import with_fix

MAX_PORT = 65535


def problem(address: str):
    """What is wrong with ``address`` (a catalogue key), or None when it is a host:port."""
    host, colon, port = address.strip().rpartition(":")
    if not address.strip():
        return "address_empty"
    if not colon or (not host.startswith("[") and ":" in host):     # "host", or a bare IPv6
        return "address_no_port"
    if not host or host == "[]":
        return "address_no_host"
    if not port.isdigit() or not 1 <= int(port) <= MAX_PORT:
        return "address_bad_port"
    return None


def check(config, spec):
    """Raise ValueError for the first task whose address is not ``host:port``."""
    for job in spec.jobs:
        for i in spec.task_indices(job):
            address = spec.task_address(job, i)
            key = problem(address)
            if key is not None:
                fixed = copy.deepcopy(config)
                fixed["cluster"] = spec.as_dict()
                fixed["cluster"][job][i] = f"localhost:{_free_port(spec)}"
                raise ValueError(with_fix(None, key, fixed, job=job, index=i, address=address,
                                          port=address.rpartition(":")[2], max=MAX_PORT))


def _free_port(spec):
    """A port no task of ``spec`` uses, for the corrected example."""
    used = [int(p) for j in spec.jobs for a in spec.job_tasks(j)
            for p in [str(a).rpartition(":")[2]] if p.isdigit() and int(p) <= MAX_PORT]
    port = max(used, default=12344) + 1
    return port if port <= MAX_PORT else min(set(range(12345, 12345 + len(used) + 1)) - set(used))
