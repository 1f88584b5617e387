"""The parameter-server tutorial's machine: every task in one process on one host.

TensorFlow's tutorial starts its 3 workers and 2 ps tasks as in-process servers of the
notebook's Python, on one machine, with enough inter-op threads for the workers to run at once.
There a closure's ops read and write the ps variables as they run, step by step, and closures
scheduled together run side by side. The default simulated cluster (a host per task,
cluster_sim.py) runs a closure as one read-compute-write unit on its own host, so two closures
scheduled together both start from the same values: with ``steps_per_execution=10`` the second
one's 10 steps are 10 updates stale, and the tutorial's first-epoch loss comes out 5.5 % higher
than TensorFlow's.

The tutorial's machine is simulated by default when the cluster is in-process, as the tutorial's
is: every worker and ps task of the strategy's cluster is a ``tf.distribute.Server`` started in
this process (``create_in_process_cluster``). ``SIM_PS_MACHINE`` or
``ClusterCoordinator(strategy, machine=...)`` chooses instead: ``one-host`` or ``cluster``. On
the tutorial's machine one CPU host holds every task; a scheduled ``Model.fit`` function
runs step by step beside the others, sharing the host's CPU (side_by_side.py), so each step
misses only the step the other closure runs at the same time; any other closure takes the CPU
whole, one at a time, reading the variables when it starts. Variables stay in the host's memory:
no transfers between tasks.
"""
from __future__ import annotations

import os

ENV = "SIM_PS_MACHINE"
NAMES = ("cluster", "one-host")


def wanted(machine, cluster=None):
    """True when the coordinator should simulate one host: the ``machine`` argument, else
    SIM_PS_MACHINE, else whether ``cluster`` (``{job: [addresses]}``) is in-process."""
    if machine is not None and not isinstance(machine, str):
        return False                      # a Machine given: the caller's own cluster
    choice = machine if machine is not None else os.environ.get(ENV)
    if not choice:
        return in_process(cluster or {})
    if choice not in NAMES:
        raise ValueError(f"{ENV} / machine= is 'cluster' (a host per task, the default) or "
                         f"'one-host' (every task on one host, as TensorFlow's tutorial runs them); "
                         f"got {choice!r}.")
    return choice == "one-host"


def in_process(cluster):
    """True when every worker and ps task of ``cluster`` is a Server started in this process,
    as TensorFlow's tutorial starts them: the tasks are threads of one process on one host."""
    from sim.distribute.ps.server import _started
    served = {(s._job_name, s._address) for s in _started}
    tasks = [(job, address) for job in ("worker", "ps") for address in cluster.get(job, ())]
    return bool(tasks) and all(task in served for task in tasks)


def machine():
    from sim.hardware.presets import cpu_cluster
    return cpu_cluster(nodes=1)
