"""``TFConfigClusterResolver``: the cluster and this task, read from TF_CONFIG (§6.2).

TF_CONFIG is read again at every access, as in TensorFlow, so a notebook can change it and
ask again. Constructor arguments override it. A missing "cluster" gives an empty ClusterSpec
(TensorFlow's single-worker fallback); the strict checks run when a multi-worker strategy
starts (``sim.distribute.tf_config.multi_worker_task``).
"""
from __future__ import annotations

from sim.distribute.cluster_resolver.base import ClusterResolver, format_master_url
from sim.distribute.cluster_spec import ClusterSpec
from sim.distribute.tf_config import load


def _get(key, default=None):
    config = load()
    return config[key] if isinstance(config, dict) and key in config else default


class TFConfigClusterResolver(ClusterResolver):
    """Reads the TF_CONFIG environment variable
    (``tf.distribute.cluster_resolver.TFConfigClusterResolver``)."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer, self._environment = rpc_layer, environment

    @property
    def task_type(self):
        if self._task_type is not None:
            return str(self._task_type)
        task = _get("task", {})
        return str(task["type"]) if isinstance(task, dict) and "type" in task else None

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        if self._task_id is not None:
            return int(self._task_id)
        task = _get("task", {})
        if not isinstance(task, dict) or "index" not in task:
            return None
        try:
            return int(task["index"])
        except (TypeError, ValueError):
            from sim.distribute.cluster_errors import with_fix
            from sim.distribute.tf_config import EXAMPLE
            raise ValueError(with_fix(None, "index_not_int", EXAMPLE,
                                      value=repr(task["index"]))) from None

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return self._rpc_layer if self._rpc_layer is not None else _get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer

    @property
    def environment(self):
        """Only the constructor argument: TensorFlow does not read TF_CONFIG's "environment"."""
        return self._environment

    def cluster_spec(self):
        cluster = _get("cluster")
        return ClusterSpec({}) if cluster is None else ClusterSpec(cluster)

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        """``session_master`` if set; "" for an empty or one-task cluster; else this task's
        address (``"grpc://host:port"`` with an rpc layer)."""
        session_master = _get("session_master")
        if session_master is not None:
            return session_master
        spec = self.cluster_spec()
        if not spec.jobs or (len(spec.jobs) == 1 and len(spec.job_tasks(spec.jobs[0])) == 1):
            return ""
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        rpc_layer = rpc_layer if rpc_layer is not None else self.rpc_layer
        return format_master_url(spec.task_address(task_type, task_id), rpc_layer)

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        return super().num_accelerators(task_type, task_id, config_proto)

    def __repr__(self):
        return f"<TFConfigClusterResolver task_type={self.task_type!r} task_id={self.task_id!r}>"
