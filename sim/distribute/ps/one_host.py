"""The parameter-server tutorial's machine: every task in one process on one host.

TensorFlow's tutorial starts its 3 workers and 2 ps tasks as in-process servers of the
notebook's Python, on one machine, with enough inter-op threads for the workers to run at once.
There a closure's ops read and write the ps variables as they run, step by step, and closures
scheduled together run side by side. The default simulated cluster (a host per task,
cluster_sim.py) runs a closure as one read-compute-write unit on its own host, so two closures
scheduled together both start from the same values: with ``steps_per_execution=10`` the second
one's 10 steps are 10 updates stale, and the tutorial's first-epoch loss comes out 5.5 % higher
than TensorFlow's.

``SIM_PS_MACHINE=one-host`` (or ``ClusterCoordinator(strategy, machine="one-host")``) simulates
the tutorial's machine instead: one CPU host holds every task; a scheduled ``Model.fit`` function
runs step by step beside the others, sharing the host's CPU (side_by_side.py), so each step
misses only the step the other closure runs at the same time; any other closure takes the CPU
whole, one at a time, reading the variables when it starts. Variables stay in the host's memory:
no transfers between tasks.
"""
from __future__ import annotations

import os

ENV = "SIM_PS_MACHINE"
NAMES = ("cluster", "one-host")


def wanted(machine):
    """True when the coordinator should simulate one host (argument, else SIM_PS_MACHINE)."""
    choice = machine if isinstance(machine, str) else (os.environ.get(ENV) or "cluster") \
        if machine is None else None
    if choice is None:
        return False
    if choice not in NAMES:
        raise ValueError(f"{ENV} / machine= is 'cluster' (a host per task, the default) or "
                         f"'one-host' (every task on one host, as TensorFlow's tutorial runs them); "
                         f"got {choice!r}.")
    return choice == "one-host"


def machine():
    from sim.hardware.presets import cpu_cluster
    return cpu_cluster(nodes=1)
