"""``tf.distribute.ParameterServerStrategy`` (TF2): variables on ps tasks, steps on workers.

The coordinator (this Python program, job ``chief``) creates the variables; each goes to a
parameter server in round-robin order, ``/job:ps/replica:0/task:{counter % num_ps}``, and the
counter counts every shard of a partitioned variable (§7.2, T8). Training steps are sent to
workers by ``tf.distribute.coordinator.ClusterCoordinator.schedule``; each worker runs one
replica (no GPUs on the simulated workers), so ``num_replicas_in_sync == 1``.

The cluster comes from a cluster resolver: anything with ``cluster_spec().as_dict()``
(``{"worker": [...], "ps": [...]}``), ``task_type`` and ``task_id``.
"""
from __future__ import annotations

import numpy as np

from sim.distribute.ps.errors import explain
from sim.distribute.ps.sharded_variable import ShardedVariable, div_row_sizes, row_offsets
from sim.distribute.single_replica import SingleReplicaExtended
from sim.distribute.strategy import Strategy


def _task_count(cluster: dict, job: str) -> int:
    return len(cluster.get(job, ()) or ())


def cluster_dict(cluster_resolver) -> dict:
    """The resolver's cluster as ``{job: [addresses]}`` (sparse jobs listed in index order)."""
    spec = cluster_resolver.cluster_spec()
    raw = spec.as_dict() if hasattr(spec, "as_dict") else dict(spec)
    out = {}
    for job, tasks in raw.items():
        out[job] = [tasks[k] for k in sorted(tasks)] if isinstance(tasks, dict) else list(tasks)
    return out


class ParameterServerStrategy(Strategy):
    """An multi-worker tf.distribute strategy with parameter servers."""

    _tf_name = "tf.distribute.ParameterServerStrategy"
    _is_parameter_server_strategy_v2 = True

    def __init__(self, cluster_resolver, variable_partitioner=None):
        super().__init__(ParameterServerStrategyExtended(self, cluster_resolver,
                                                         variable_partitioner))
        self._cluster_coordinator = None

    def __repr__(self):
        e = self.extended
        workers = f"{e._num_workers} worker" + ("" if e._num_workers == 1 else "s")
        servers = f"{e._num_ps} parameter server" + ("" if e._num_ps == 1 else "s")
        return f"<{self._tf_name} with {workers} and {servers}>"


class ParameterServerStrategyExtended(SingleReplicaExtended):
    """Implementation of ParameterServerStrategy: placement, partitioning, the cluster."""

    def __init__(self, container_strategy, cluster_resolver, variable_partitioner):
        cluster = cluster_dict(cluster_resolver)
        if not cluster:
            raise ValueError(explain("Cluster spec must be non-empty in "
                                     "`tf.distribute.cluster_resolver.ClusterResolver`.",
                                     "empty_cluster"))
        _validate(cluster, cluster_resolver)
        if _task_count(cluster, "ps") < 1:
            raise ValueError(explain("There must be at least one ps.", "no_ps"))
        if _task_count(cluster, "worker") < 1:
            raise ValueError(explain("There must be at least one worker.", "no_worker"))
        from sim.distribute.default import _default_device
        super().__init__(container_strategy, _default_device())
        self._cluster_resolver = cluster_resolver
        self._cluster = cluster
        self._num_ps = _task_count(cluster, "ps")
        self._num_workers = _task_count(cluster, "worker")
        self._variable_partitioner = variable_partitioner
        self._variable_count = 0
        self._ps_variables: list = []
        self._being_scheduled = False

    # -- what it is --------------------------------------------------------------------------
    @property
    def parameter_devices(self):
        return tuple(f"/job:ps/replica:0/task:{i}/device:CPU:0" for i in range(self._num_ps))

    @property
    def worker_devices(self):
        return tuple(f"/job:worker/replica:0/task:{i}/device:CPU:0"
                     for i in range(self._num_workers))

    def _in_multi_worker_mode(self):
        """TensorFlow's method: a ps cluster is always multi-worker."""
        return True

    @property
    def should_checkpoint(self):
        return True

    # -- variable creation -------------------------------------------------------------------
    def _create_variable(self, next_creator, **kwargs):
        colocate = kwargs.pop("colocate_with", None)
        if self._colocate_with:
            colocate = self._colocate_with[-1]
        if colocate is not None:
            target = colocate.variables[0] if isinstance(colocate, ShardedVariable) else colocate
            return self._place(kwargs, getattr(target, "_ps_task", 0))
        if self._variable_partitioner is None:
            return self._round_robin(kwargs)
        init = kwargs.get("initial_value")
        if init is None:
            raise ValueError(explain(
                "It looks like you are using `ParameterServerStrategy` with a "
                "`variable_partitioner`, and trying to create a variable without specifying "
                "`initial_value`. This is not allowed. Please specify the `initial_value`.",
                "no_initial_value"))
        value = self._initial_array(kwargs)
        if value.ndim == 0:
            return self._round_robin(kwargs)
        from sim.engine import dtypes
        from sim.engine.shape import TensorShape
        dtype = kwargs["dtype"]
        parts = self._variable_partitioner(shape=TensorShape(value.shape), dtype=dtype)
        if (not isinstance(parts, (list, tuple)) or not parts or parts[0] == 0
                or any(p != 1 for p in parts[1:])):
            raise ValueError(explain(
                "variable_partitioner must return a list/tuple whose elements are 1 besides "
                f"the first element (non-zero), got: {parts!r}", "bad_partitions"))
        if parts[0] == 1:
            return self._round_robin(kwargs)
        name = (kwargs.get("name") or "Variable").split(":")[0]
        offsets = row_offsets(div_row_sizes(value.shape[0], parts[0]))
        shards = []
        for i in range(len(offsets) - 1):
            kw = dict(kwargs, initial_value=value[offsets[i]:offsets[i + 1]],
                      name=f"{name}/part_{i}", dtype=dtypes.as_dtype(dtype))
            shards.append(self._round_robin(kw))
        sharded = ShardedVariable(shards, name=name)
        sharded._distribute_strategy = self._container_strategy()
        return sharded

    def _initial_array(self, kwargs):
        """Evaluate the initial value once (a callable is called) and fix the dtype."""
        from sim.engine import dtypes
        from sim.engine.tensor import convert_to_tensor
        init = kwargs["initial_value"]
        if callable(init):
            init = init()
        dtype = kwargs.get("dtype")
        t = convert_to_tensor(init, dtype=None)
        arr = np.asarray(t._v)
        if dtype is not None and t.dtype != dtypes.as_dtype(dtype):
            arr = arr.astype(dtypes.as_dtype(dtype).as_numpy_dtype)
        kwargs["initial_value"] = arr
        kwargs["dtype"] = dtypes.as_dtype(dtype) if dtype is not None else t.dtype
        return arr

    def _round_robin(self, kwargs):
        task = self._variable_count % self._num_ps
        self._variable_count += 1
        return self._place(kwargs, task)

    def _place(self, kwargs, task):
        from sim.distribute.ps.variable import ParameterServerVariable
        kwargs = {k: v for k, v in kwargs.items() if k != "colocate_with"}
        v = ParameterServerVariable(**kwargs)
        v._device = f"/job:ps/replica:0/task:{task}/device:CPU:0"
        v._ps_task = task
        v._distribute_strategy = self._container_strategy()
        self._ps_variables.append(v)
        return v

    def variable_created_in_scope(self, v):
        return getattr(v, "_distribute_strategy", None) is self._container_strategy()

    # -- input: one pipeline per worker ------------------------------------------------------
    def _distribute_datasets_from_function(self, dataset_fn, options):
        from sim.distribute.input import InputContext
        return dataset_fn(InputContext(num_input_pipelines=1, input_pipeline_id=0,
                                       num_replicas_in_sync=1))

    def _experimental_distribute_dataset(self, dataset, options):
        return dataset


def _validate(cluster, resolver):
    """TensorFlow's ``multi_worker_util._validate_cluster_spec`` (§6.4), on the resolver's task.

    Stands in until the shared cluster module lands; the checks and their order are TF's.
    """
    allowed = ("chief", "worker", "evaluator", "ps", None)
    task_type = getattr(resolver, "task_type", None)
    task_id = getattr(resolver, "task_id", None) or 0
    if any(job not in allowed for job in cluster):
        raise ValueError(explain(f"Disallowed task type found in cluster spec. Allowed types are "
                                 f"{allowed} and the cluster spec is {cluster}.",
                                 "bad_task_type", job=sorted(cluster)))
    if task_type not in allowed:
        raise ValueError(explain(f"Unrecognized task_type: {task_type!r}, valid task types are: "
                                 f"{allowed}", "bad_task_type", job=task_type))
    if task_type and task_type not in cluster and task_type != "evaluator":
        raise ValueError(explain(f"`task_type` {task_type!r} not found in cluster_spec.",
                                 "task_not_found", job=task_type))
    if len(cluster.get("chief", ())) > 1:
        raise ValueError(explain("There must be at most one 'chief' job.", "two_chiefs"))
    if len(cluster.get("evaluator", ())) > 1:
        raise ValueError(explain("There must be at most one 'evaluator' job.", "two_evaluators"))
    if task_type in cluster and task_id >= len(cluster[task_type]):
        raise ValueError(explain(f"The `task_id` {task_id} exceeds the maximum id of "
                                 f"{task_type}.", "task_id_too_big", job=task_type, id=task_id))
