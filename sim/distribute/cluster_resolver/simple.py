"""``SimpleClusterResolver``: a cluster and a task given as arguments, not read from anywhere."""
from __future__ import annotations

from sim.distribute.cluster_resolver.base import ClusterResolver, format_master_url
from sim.distribute.cluster_spec import ClusterSpec


class SimpleClusterResolver(ClusterResolver):
    """Returns what it was given (``tf.distribute.cluster_resolver.SimpleClusterResolver``)."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="",
                 num_accelerators=None, rpc_layer=None):
        if not isinstance(cluster_spec, ClusterSpec):
            from sim.distribute.cluster_errors import annotate
            raise TypeError(annotate("cluster_spec must be a `tf.train.ClusterSpec`.",
                                    "resolver_spec", kind=type(cluster_spec).__name__))
        if not isinstance(master, str):
            raise TypeError("master must be a string.")
        self._cluster_spec, self._master = cluster_spec, master
        self._task_type, self._task_id = task_type, task_id
        self._environment, self._rpc_layer = environment, rpc_layer
        self._num_accelerators = num_accelerators

    def cluster_spec(self):
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        """The given task's address, or the ``master`` given at construction."""
        if task_type is not None and task_id is not None:
            master = self._cluster_spec.task_address(task_type, task_id)
        else:
            master = self._master
        return format_master_url(master, rpc_layer or self._rpc_layer)

    @property
    def environment(self):
        return self._environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {} if self._num_accelerators is None else self._num_accelerators
