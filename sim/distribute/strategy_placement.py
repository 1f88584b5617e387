"""Soft placement for strategies: a device the simulated machine lacks, as TensorFlow treats it.

TensorFlow places an op whose device does not exist on one that does (soft placement is on in
eager mode: ``EagerContext::SelectDevice`` drops the type and index and takes the device of the
highest priority, GPU:0 on a machine with GPUs, else CPU:0), and runs logical CPUs (a CPU split
by ``set_logical_device_configuration``) on the one physical CPU: ``OneDeviceStrategy("/gpu:7")``
on a 4-GPU machine, or ``MirroredStrategy(["/gpu:0", "/gpu:1"])`` on a one-GPU machine, still
build, keep the names asked for (``worker_devices`` shows ``.../device:GPU:7``) and compute on
GPU:0 (on the host's CPU without GPUs). Here the missing local GPU's full name is mapped to that
device of host 0, so the simulation times that replica there, and an INFO record in the course language on the ``tensorflow`` logger says
so (TensorFlow says nothing; ``tf.get_logger().setLevel("INFO")`` shows sim's, e.g. for a typo
such as ``/gpu:9``). Other names (a job or task the machine has not, a CPU
index, a TPU) still raise the machine's ValueError.
"""
from __future__ import annotations

import logging
import re

from sim.engine.device import canonical as full_name

logger = logging.getLogger("tensorflow")
_LOCAL_GPU = re.compile(r"^/job:localhost/replica:0/task:0/device:GPU:\d+$")
_LOCAL_CPU = re.compile(r"^/job:localhost/replica:0/task:0/device:CPU:(\d+)$")


def logical_cpus():
    """Full names of the host's logical CPUs (``tf.config.set_logical_device_configuration``)."""
    from sim.distribute.device_config import list_logical_devices
    return [full_name(d.name) for d in list_logical_devices("CPU")]


def place(machine, name):
    """The full TensorFlow name for a local GPU ``name`` the machine lacks, now mapped to host 0's
    GPU:0 (to its CPU when it has no GPU), or for a logical CPU, mapped to the host's CPU; None
    when soft placement does not apply (the caller raises its error)."""
    if not isinstance(name, str):
        return None
    full = full_name(name)
    # a missing GPU, or a logical CPU the configuration split the host's CPU into (TensorFlow
    # runs those on the one physical CPU too)
    if not (_LOCAL_GPU.match(full) or _LOCAL_CPU.match(full) and full in logical_cpus()):
        return None
    cpus = machine.devices_of("CPU", host=0)
    if not cpus:
        return None
    gpus = machine.devices_of("GPU", host=0) if _LOCAL_GPU.match(full) else []
    host = (gpus or cpus)[0]
    lookup = getattr(machine, "_lookup", None)
    if lookup is None:
        return None
    if full not in lookup and not _LOCAL_CPU.match(full):
        from sim.i18n import t
        logger.info(t("hardware.soft_placement", name=name, machine=machine.name,
                         host=machine.display_name(host), full=full))
    lookup[full] = lookup[name] = host
    return full
