"""Tasks started by hand, as TensorFlow's multi-worker tutorials start them: ``TF_CONFIG=...
python main.py &`` once per worker, with no launcher.

They find each other through the addresses their TF_CONFIG names, as TensorFlow's servers do:
the first task of the collective group (the chief, else worker 0) hosts the fabric at its own
address, in threads of its own process, and every task (the host too) joins it there, retrying
until the host is up (dial.py). The guarantees are a launch's: loopback addresses only (this
machine; any other address is refused with the fix), the handshake with a secret the tasks share
(cluster_secret.py), JSON and raw array bytes only (protocol.py), strangers cut off after the
handshake deadline (door.py), and the cluster's one simulated clock, held by the fabric. The host
waits at its exit (up to ``LINGER_SECONDS``) until the others have left, so their last
collectives and goodbyes still find the fabric.
"""
from __future__ import annotations

import atexit
import ipaddress
import os
import time
from multiprocessing import AuthenticationError

from sim.i18n import t
from sim.fabric import client
from sim.fabric.messages import task_label

LINGER_SECONDS = 30.0


def join(found, machine, gpus):
    """Join (and, for the group's first task, host) the cluster ``found`` (a ClusterTask)."""
    from sim.engine.errors import UnavailableError
    from sim.fabric import cluster_secret
    from sim.fabric.dial import FabricUnreachable, connect_seconds
    spec = found.cluster_spec
    group = [f"{job}:{i}" for job in ("chief", "worker") if job in spec.jobs
             for i in range(spec.num_tasks(job))]
    addresses = {name: loopback(name, spec.task_address(*_split(name))) for name in group}
    me, host = f"{found.task_type}:{found.task_id}", group[0]
    secret = cluster_secret.read()
    if me == host:
        _host(group, secret, addresses[host], machine, gpus)
    try:
        return client.connect(found.task_type, found.task_id, addresses[host], secret)
    except FabricUnreachable:
        raise UnavailableError(None, None, t(
            "fabric.unreachable", task=task_label(me), host=task_label(host),
            address="%s:%d" % addresses[host], seconds=f"{connect_seconds():g}",
            env="SIM_LAUNCH_CONNECT_TIMEOUT")) from None
    except (AuthenticationError, EOFError, OSError) as e:   # another secret, or another program
        raise UnavailableError(None, None, t(
            "fabric.refused", task=task_label(me), address="%s:%d" % addresses[host],
            error=f"{type(e).__name__}: {e}", env=cluster_secret.ENV_SECRET)) from None


def join_launch(task_type, task_id):
    """Join the launcher's fabric (its address and secret are in the environment)."""
    from sim.engine.errors import UnavailableError
    from sim.fabric.dial import FabricUnreachable, connect_seconds
    try:
        return client.connect(task_type, task_id)
    except FabricUnreachable:
        raise UnavailableError(None, None, t(
            "fabric.launcher_unreachable", task=task_label(f"{task_type}:{task_id}"),
            address=os.environ.get(client.ENV_ADDRESS), seconds=f"{connect_seconds():g}",
            env="SIM_LAUNCH_CONNECT_TIMEOUT")) from None


def _split(name):
    job, _, index = name.partition(":")
    return job, int(index)


def loopback(task, address) -> tuple:
    """``"localhost:12345"`` -> ("127.0.0.1", 12345); a ValueError naming the task otherwise."""
    text = str(address)
    host, sep, port = text.rpartition(":")
    try:
        number = int(port) if sep else -1
    except ValueError:
        number = -1
    if not 0 < number < 65536:
        raise ValueError(t("fabric.bad_port", task=task_label(task), address=text))
    host = host.strip("[]")
    if host.lower() == "localhost":
        return "127.0.0.1", number
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is None or not ip.is_loopback:
        raise ValueError(t("fabric.not_loopback", task=task_label(task), address=text))
    return (str(ip) if ip.version == 4 else "127.0.0.1"), number   # [::1]: this machine too


def _host(group, secret, address, machine, gpus):
    from sim.fabric.launch_machine import ClusterReducer
    from sim.fabric.server import Fabric
    try:
        fabric = Fabric(group, secret, ClusterReducer(machine, len(group), gpus),
                        host=address[0], port=address[1])
    except OSError as e:
        raise RuntimeError(t("fabric.address_in_use", task=task_label(group[0]),
                             address="%s:%d" % address, error=e.strerror or e)) from None
    atexit.register(_linger, fabric)     # runs after this task's own goodbye (atexit is LIFO)
    import threading
    threading.Thread(target=_say_stragglers, args=(fabric, group), name="fabric-stragglers",
                     daemon=True).start()
    return fabric


def _say_stragglers(fabric, group, notice=None, repeat=60.0):
    """TensorFlow's coordination service names the tasks that have not connected ("Waiting for
    1/2 tasks to connect. Example stragglers: /job:worker/replica:0/task:1"): so does the host,
    on stderr, once nothing has joined for ``notice`` s, then every ``repeat`` s."""
    import sys
    from sim.fabric.messages import notice_seconds
    notice = notice_seconds() if notice is None else notice
    start = time.monotonic()
    due = start + notice
    while not fabric.closed:
        joined = fabric.waiting()[0]
        missing = [name for name in group if name not in joined]
        if not missing:
            return
        if time.monotonic() >= due:
            due = time.monotonic() + repeat
            names = "\n".join("/job:%s/replica:0/task:%d" % _split(m) for m in missing[:3])
            print(f"Waiting for {len(missing)}/{len(group)} tasks to connect.\n"
                  f"Example stragglers:\n{names}\n" + t(
                      "fabric.waiting_for_tasks", task=task_label(group[0]),
                      seconds=round(time.monotonic() - start), n=len(group),
                      missing=", ".join(task_label(m) for m in missing)),
                  file=sys.stderr, flush=True)
        time.sleep(0.25)


def _linger(fabric, seconds=None):
    deadline = time.monotonic() + (LINGER_SECONDS if seconds is None else seconds)
    while not fabric.all_left() and time.monotonic() < deadline:
        time.sleep(0.02)
    fabric.close()

