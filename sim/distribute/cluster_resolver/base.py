"""``ClusterResolver``: the interface every resolver implements (TensorFlow's abstract class)."""
from __future__ import annotations

import abc


def format_master_url(master, rpc_layer=None):
    """``"grpc://host:port"`` with an rpc layer, the bare address without."""
    return f"{rpc_layer}://{master}" if rpc_layer else master


class ClusterResolver(abc.ABC):
    """Gives ``cluster_spec()``, ``master()``, this task's ``task_type``/``task_id`` and its
    accelerators (``tf.distribute.cluster_resolver.ClusterResolver``)."""

    @abc.abstractmethod
    def cluster_spec(self):
        """The cluster as a ``tf.train.ClusterSpec``."""

    @abc.abstractmethod
    def master(self, task_type=None, task_id=None, rpc_layer=None):
        """The address of a task, for a TF1 session."""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        """Accelerators this process sees, by type, e.g. ``{"GPU": 4}`` (CPUs not counted).

        TensorFlow lists the devices of the running program and keeps those whose name
        carries ``/job:<task_type>`` and ``/task:<task_id>``. A simulated process is one task
        and its devices are that task's devices, so they all count."""
        from sim.distribute import device_config as config
        counts = {}
        for device in config.list_logical_devices():
            if device.device_type != "CPU":
                counts[device.device_type] = counts.get(device.device_type, 0) + 1
        return counts

    @property
    def environment(self):
        return ""

    @property
    def task_type(self):
        return getattr(self, "_task_type", None)

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        return getattr(self, "_task_id", None)

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return getattr(self, "_rpc_layer", None)

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer
