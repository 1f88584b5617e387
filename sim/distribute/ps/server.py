"""``tf.distribute.Server`` (also ``tf.train.Server``) and ``tf.compat.v1.ConfigProto``.

In TensorFlow a Server is the gRPC endpoint of one task: workers and parameter servers start one
and wait for the coordinator. In the simulator every task lives inside the coordinator's
simulated cluster, so a Server only checks its arguments as TensorFlow does and remembers which
task it stands for; nothing listens on the port and ``join()`` returns at once. This keeps the
tutorial's cluster set-up code running unchanged.
"""
from __future__ import annotations

from sim.distribute.ps.errors import explain


class ConfigProto:
    """Session options (``tf.compat.v1.ConfigProto``): stored, not used by the simulator."""

    def __init__(self, **fields):
        self.inter_op_parallelism_threads = 0
        self.intra_op_parallelism_threads = 0
        self.allow_soft_placement = False
        self.log_device_placement = False
        self.device_count = {}
        self.gpu_options = _Options(allow_growth=False, per_process_gpu_memory_fraction=0.0,
                                    visible_device_list="")
        for k, v in fields.items():
            setattr(self, k, v)

    def __repr__(self):
        return f"ConfigProto(inter_op_parallelism_threads={self.inter_op_parallelism_threads})"


class _Options:
    def __init__(self, **fields):
        self.__dict__.update(fields)


_started: list = []      # the servers made in this process, in order (for lessons)


class Server:
    """An in-process TensorFlow server of one task of a cluster (``tf.distribute.Server``)."""

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
                 config=None, start=True):
        from sim.distribute.cluster_spec import ClusterSpec
        spec = ClusterSpec(server_or_cluster_def) if not isinstance(
            server_or_cluster_def, ClusterSpec) else server_or_cluster_def
        if job_name is None:
            if len(spec.jobs) != 1:
                raise ValueError(explain("Must specify an explicit `job_name`.", "server_job"))
            job_name = spec.jobs[0]
        if task_index is None:
            indices = spec.task_indices(job_name)
            if len(indices) != 1:
                raise ValueError(explain("Must specify an explicit `task_index`.", "server_task"))
            task_index = indices[0]
        self._address = spec.task_address(job_name, task_index)
        self._cluster_spec, self._job_name, self._task_index = spec, job_name, task_index
        self._protocol = protocol or "grpc"
        self._config = config
        self._started = False
        if start:
            self.start()

    def start(self):
        """Mark the server started (there is no real thread or socket)."""
        if not self._started:
            self._started = True
            _started.append(self)

    def join(self):
        """Returns at once: the simulated task has nothing to wait for."""

    @property
    def target(self):
        return f"{self._protocol}://{self._address}"

    @property
    def server_def(self):
        return {"cluster": self._cluster_spec.as_dict(), "job_name": self._job_name,
                "task_index": self._task_index, "protocol": self._protocol}

    @staticmethod
    def create_local_server(config=None, start=True):
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config, start=start)

    def __repr__(self):
        return f"<tf.distribute.Server /job:{self._job_name}/task:{self._task_index} {self.target}>"
