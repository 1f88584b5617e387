"""``SlurmClusterResolver``: the cluster and this task, read from a Slurm job step's variables.

As TensorFlow 2.21 has it (tensorflow/python/distribute/cluster_resolver/slurm_cluster_resolver.py):
``SLURM_PROCID`` is this task's rank; ``SLURM_STEP_NUM_TASKS``, ``SLURM_STEP_NODELIST`` (a host
list such as ``n[01-02],m5``, numbers as wide as the range's first) and ``SLURM_STEP_TASKS_PER_NODE`` (such as ``4(x2),1``) give the
rest when the arguments leave them out. Nodes are taken in sorted order of their names (as
strings: ``n10`` before ``n9``), each node's tasks on ports ``port_base``, ``port_base + 1``...
and GPUs ``0..gpus_per_task-1``, ``gpus_per_task..``; ranks fill the jobs in sorted order of the
job names ("chief" before "ps" before "worker"). ``task_type``/``task_id`` are None until
``cluster_spec()`` has run, and ``cluster_spec()`` sets ``CUDA_VISIBLE_DEVICES`` to this
task's GPUs when ``auto_set_gpu``. The errors and their words are TensorFlow's.
"""
from __future__ import annotations

import os
import re

from sim.distribute.cluster_resolver.base import ClusterResolver, format_master_url
from sim.distribute.cluster_spec import ClusterSpec


def _split_at_top_level_commas(hostlist):
    """'n[1-2],m5' -> 'n[1-2]', 'm5' (commas inside brackets belong to the range)."""
    part, depth = "", False
    for c in hostlist:
        if depth:
            assert c != "["
            depth = c != "]"
        elif c == "[":
            depth = True
        elif c == ",":
            assert part != ""
            yield part
            part = ""
            continue
        part += c
    if part:
        yield part


def _range_values(expression):
    """'3-5,7' -> '3', '4', '5', '7'; '08-10' -> '08', '09', '10' (as wide as the first)."""
    for item in expression.split(","):
        bounds = item.split("-")
        if len(bounds) == 1:
            bounds = bounds * 2
        else:
            assert len(bounds) == 2
        width = len(bounds[0])
        for i in range(int(bounds[0]), int(bounds[1]) + 1):
            yield str(i).zfill(width)


def expand_hostlist(hostlist):
    """A Slurm host list as a list of names, in order, not deduplicated:
    ``'n[1-2],m5,o[3-4,6,7-9]'`` -> ``['n1', 'n2', 'm5', 'o3', 'o4', 'o6', 'o7', 'o8', 'o9']``."""
    hosts = []
    try:
        for part in _split_at_top_level_commas(hostlist):
            match = re.match(r"([^,[\]]*)(\[([^\]]+)\])?$", part)
            if match is None:
                raise ValueError(f"Invalid part: {part}")
            prefix = match.group(1) or ""
            if match.group(3) is None:
                hosts.append(prefix)
            else:
                hosts.extend(prefix + i for i in _range_values(match.group(3)))
    except Exception as e:
        raise ValueError(f'Invalid hostlist format "{hostlist}": {e}') from None
    return hosts


def expand_tasks_per_node(tasks_per_node):
    """Slurm's tasks per node, one number per node: ``'3(x2),2,1'`` -> ``[3, 3, 2, 1]``."""
    counts = []
    try:
        for part in tasks_per_node.split(","):
            match = re.match(r"(\d+)(\(x(\d+)\))?$", part)
            assert match is not None
            counts.extend([int(match.group(1))] * int(match.group(3) or 1))
    except Exception as e:
        raise ValueError(f'Invalid tasks-per-node list format "{tasks_per_node}": {e}') from None
    return counts


def slurm_variable(name):
    """``SLURM_<name>`` from the environment; RuntimeError (TensorFlow's words) if unset."""
    name = "SLURM_" + name
    try:
        return os.environ[name]
    except KeyError:
        raise RuntimeError(f"{name} not found in environment. Not running inside a SLURM step?") from None


def get_num_gpus():
    """GPUs of this node: the entries of CUDA_VISIBLE_DEVICES ("" counts as one, as in
    TensorFlow), else what ``nvidia-smi --list-gpus`` would list on the simulated node: the
    GPUs of one host of the current simulated machine."""
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        return len(os.environ["CUDA_VISIBLE_DEVICES"].split(","))
    from sim import runtime
    machine = runtime.current_machine()
    return len(machine.devices_of("GPU", host=machine.hosts[0]))


class SlurmClusterResolver(ClusterResolver):
    """``tf.distribute.cluster_resolver.SlurmClusterResolver``: one TensorFlow task per Slurm task."""

    def __init__(self, jobs=None, port_base=8888, gpus_per_node=None, gpus_per_task=None,
                 tasks_per_node=None, auto_set_gpu=True, rpc_layer="grpc"):
        self._rank = int(slurm_variable("PROCID"))
        self._jobs = {"worker": int(slurm_variable("STEP_NUM_TASKS"))} if jobs is None else jobs
        self._port_base = port_base
        if tasks_per_node is None:
            hosts = expand_hostlist(slurm_variable("STEP_NODELIST"))
            counts = expand_tasks_per_node(slurm_variable("STEP_TASKS_PER_NODE"))
            self._task_configuration = dict(zip(hosts, counts))
        elif isinstance(tasks_per_node, dict):
            self._task_configuration = tasks_per_node
        else:
            hosts = expand_hostlist(slurm_variable("STEP_NODELIST"))
            self._task_configuration = {host: int(tasks_per_node) for host in hosts}
        most_on_a_node = max(self._task_configuration.values())
        assigned = sum(self._task_configuration.values())
        if gpus_per_node is None:
            gpus_per_node = get_num_gpus()
        if gpus_per_task is None:
            gpus_per_task = gpus_per_node // most_on_a_node
        self._gpus_per_node, self._gpus_per_task = gpus_per_node, gpus_per_task
        self._auto_set_gpu = auto_set_gpu
        self.task_type = None
        self.task_id = None
        self.rpc_layer = rpc_layer
        self._gpu_allocation, self._cluster_allocation = [], {}
        if most_on_a_node * gpus_per_task > gpus_per_node:
            raise RuntimeError("Requested more GPUs per node than available.")
        requested = sum(self._jobs.values())
        if requested != assigned:
            raise RuntimeError(f"Requested {requested} tasks but only {assigned} were assigned.")

    def cluster_spec(self):
        """The cluster of this job step, worked out again at every call (and this task's role)."""
        addresses, self._gpu_allocation, self._cluster_allocation = [], [], {}
        for host, count in sorted(self._task_configuration.items()):
            first_gpus = range(0, self._gpus_per_node, self._gpus_per_task)
            for port_offset, first_gpu in zip(range(count), first_gpus):
                addresses.append(f"{host}:{self._port_base + port_offset}")
                gpus = range(first_gpu, first_gpu + self._gpus_per_task)
                self._gpu_allocation.append(",".join(str(g) for g in gpus))
        start = 0
        for job, count in sorted(self._jobs.items()):
            self._cluster_allocation[job] = addresses[start:start + count]
            if start <= self._rank < start + count:
                self.task_type, self.task_id = job, self._rank - start
            start += count
        if self._auto_set_gpu:
            os.environ["CUDA_VISIBLE_DEVICES"] = self._gpu_allocation[self._rank]
        return ClusterSpec(self._cluster_allocation)

    def get_task_info(self):
        """(task_type, task_id) of this process; (None, None) before ``cluster_spec()``."""
        return self.task_type, self.task_id

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        if task_type is not None and task_id is not None:
            return format_master_url(self.cluster_spec().task_address(task_type, task_id),
                                     rpc_layer or self.rpc_layer)
        return ""

    @property
    def environment(self):
        return ""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {"GPU": self._gpus_per_task}
