"""``tf.distribute.MultiWorkerMirroredStrategy``: synchronous training over the GPUs of many workers.

Each worker is its own OS process started by the course launcher (``python -m sim launch``),
with its role in TF_CONFIG. The strategy is MirroredStrategy on the worker's own host (one
replica per local GPU, replica threads in lockstep), plus what makes it a cluster (§6.5):

* the simulated machine is the launch's cluster, one host per worker (sim.launch.cluster_machine),
  and this worker's replicas are its host's GPUs, so ``num_replicas_in_sync`` = local x workers;
* gradients and every reduction go through ``CollectiveAllReduce``: across workers, through the
  launch's fabric, which sums them and keeps the cluster's one clock;
* variables start equal everywhere: each worker builds them and takes the chief's initial
  values (a broadcast from rank 0, as TensorFlow does);
* ``should_checkpoint`` is the chief's, so Keras' checkpoints write the real path only there
  (T30); the others write ``workertemp_<task_id>`` and remove it;
* TensorFlow fixes the collective configuration at start-up: creating the strategy after any
  op ran raises "Collective ops must be configured at program startup".
Without TF_CONFIG (or with an empty cluster) it runs single-worker on the local devices.
"""
from __future__ import annotations

import logging
import os

from sim.distribute import _machine
from sim.distribute.collective_all_reduce import CollectiveAllReduce
from sim.distribute.communication_options import CommunicationImplementation, CommunicationOptions
from sim.distribute.errors import explain
from sim.distribute.mirrored import MirroredExtended, resolve_devices
from sim.distribute.reduce_op import ReduceOp, aggregation_name
from sim.distribute.strategy import Strategy
from sim.distribute.values import DistributedValues, PerReplica
from sim.distribute.variables import SyncOnReadVariable

logger = logging.getLogger("tensorflow")


class MultiWorkerMirroredStrategy(Strategy):
    """A distribution strategy for synchronous training on multiple workers."""

    _tf_name = "tf.distribute.MultiWorkerMirroredStrategy"

    def __init__(self, cluster_resolver=None, communication_options=None):
        if communication_options is None:
            communication_options = CommunicationOptions()
        super().__init__(CollectiveAllReduceExtended(self, cluster_resolver, communication_options))

    def __repr__(self):
        ext = self.extended
        return (f"<{self._tf_name} with {self.num_replicas_in_sync} replica(s) "
                f"on {ext._num_workers} worker(s)>")


class _CollectiveAllReduceStrategyExperimental(MultiWorkerMirroredStrategy):
    """``tf.distribute.experimental.MultiWorkerMirroredStrategy`` (deprecated): ``communication``
    is the old name of ``communication_options.implementation``."""

    def __init__(self, communication=CommunicationImplementation.AUTO, cluster_resolver=None,
                 communication_options=None):
        if communication_options is None:
            communication_options = CommunicationOptions(implementation=communication)
        super().__init__(cluster_resolver, communication_options)


def _cluster(cluster_resolver):
    """(cluster dict, task_type, task_id) from the resolver (TF_CONFIG by default), checked by
    ``sim.distribute.tf_config``: a malformed TF_CONFIG raises TensorFlow's error naming the field;
    an empty cluster gives ({}, None, None), single-worker mode."""
    from sim.distribute.tf_config import multi_worker_task
    task = multi_worker_task(cluster_resolver)
    if task is None:
        return {}, None, None
    return task.cluster_spec.as_dict(), task.task_type, task.task_id


def _size(job):
    return len(job) if job is not None else 0


class CollectiveAllReduceExtended(MirroredExtended):
    """Implementation of MultiWorkerMirroredStrategy."""

    _variable_class = "mirrored"

    def __init__(self, container_strategy, cluster_resolver, communication_options):
        self._cluster_resolver = cluster_resolver
        self._communication_options = communication_options
        cluster, task_type, task_id = _cluster(cluster_resolver)
        self._fabric = None
        self._steps = 0
        self._fail_step = None
        if not cluster:
            self._setup_local()
        else:
            self._setup_cluster(cluster, task_type, task_id)
        super().__init__(container_strategy, devices=self._local_devices,
                         cross_device_ops=None)
        self._num_replicas_in_sync = len(self._devices) * self._num_workers
        self._cross_device_ops = self._collective_ops = CollectiveAllReduce(
            self._devices, self._num_replicas_in_sync, communication_options, self._fabric)
        self._inferred_cross_device_ops = self._collective_ops
        logger.info("MultiWorkerMirroredStrategy with cluster_spec = %r, task_type = %r, task_id = %r, "
                    "num_workers = %r, local_devices = %r", cluster, self._task_type, self._task_id,
                    self._num_workers, self._devices)

    # -- set-up -----------------------------------------------------------------------------
    def _setup_local(self):
        self._task_type = self._task_id = None
        self._num_workers, self._rank, self._is_chief = 1, 0, True
        self._local_devices = resolve_devices(None)

    def _setup_cluster(self, cluster, task_type, task_id):
        from sim.launch import client, task
        if task_type is None or task_id is None:
            raise ValueError("When `cluster_spec` is given, you must also specify `task_type` and "
                             "`task_id`.")
        chiefs, workers = _size(cluster.get("chief")), _size(cluster.get("worker"))
        if task_type == "chief":
            rank = 0
        elif task_type == "worker":
            rank = task_id + chiefs
        elif task_type == "evaluator":
            rank = task_id
        else:
            raise ValueError(f"There is no id for task_type {task_type!r}")
        self._num_workers = chiefs + workers if task_type != "evaluator" else 1
        if self._num_workers == 0:
            raise ValueError("No `worker`, `chief` or `evaluator` tasks can be found in "
                             "`cluster_spec`.")
        self._task_type, self._task_id, self._rank = task_type, task_id, rank
        self._is_chief = task_type in ("chief", "evaluator") or (task_type == "worker" and task_id == 0
                                                                   and not chiefs)
        if task.stop_listening() > 0 or _machine_used():
            from sim.i18n import t
            text = "Collective ops must be configured at program startup"
            raise RuntimeError(text + "\n" + t("launch.startup"))
        if not client.launched():
            from sim.i18n import t
            raise RuntimeError(t("launch.no_launcher"))
        self._use_cluster_machine()
        self._fabric = client.connect(task_type, task_id)
        fail = os.environ.get(client.ENV_FAIL_STEP)
        self._fail_step = int(fail) if fail else None

    def _use_cluster_machine(self):
        from sim.launch import client
        from sim.launch.cluster_machine import cluster_machine, local_devices
        preset = os.environ.get(client.ENV_MACHINE) or "workstation-4gpu"
        gpus = os.environ.get(client.ENV_GPUS)
        gpus = int(gpus) if gpus else None
        machine = cluster_machine(preset, self._num_workers, gpus)
        _machine.use_machine(machine)
        self._local_devices = local_devices(machine, self._rank, gpus)

    # -- properties TensorFlow gives ----------------------------------------------------------
    @property
    def should_checkpoint(self):
        return self._is_chief

    @property
    def should_save_summary(self):
        return self._is_chief

    def _in_multi_worker_mode(self):
        """Whether this strategy spans several workers (a method, as in TensorFlow)."""
        return self._num_workers > 1

    @property
    def worker_devices(self):
        return self._devices

    # -- running (a step counts for fault injection) ---------------------------------------------
    def _call_for_each_replica(self, fn, args, kwargs):
        self._steps += 1
        if self._fail_step is not None and self._steps == self._fail_step:
            self._inject_failure()
        return super()._call_for_each_replica(fn, args, kwargs)

    def _inject_failure(self):
        """The launcher asked this task to fail here: it dies as a crashed machine would."""
        import signal
        import sys
        from sim.i18n import t
        print(t("launch.injecting", step=self._steps), flush=True)
        sys.stderr.flush()
        self._fabric.report_error(f"injected:{self._steps}")
        os.kill(os.getpid(), signal.SIGKILL)

    def _barrier(self):
        """Wait until every worker reaches this point (a round of the fabric carrying nothing)."""
        if self._fabric is not None:
            from sim.runtime import clock
            self._fabric.broadcast([], arrive=clock().now)

    # -- variables: the chief's initial values ------------------------------------------------
    def _make_variable(self, next_creator, kwargs, sync, agg, devices):
        if self._fabric is not None:
            kwargs = dict(kwargs)
            initial = kwargs.get("initial_value")
            if callable(initial):
                initial = initial()
            kwargs["initial_value"] = self._broadcast_initial(initial, kwargs.get("dtype"))
        v = super()._make_variable(next_creator, kwargs, sync, agg, devices)
        if self._num_workers > 1 and isinstance(v, SyncOnReadVariable):
            v.__class__ = ClusterSyncOnReadVariable
        return v

    def _broadcast_initial(self, initial, dtype):
        import numpy as np

        from sim.distribute import _ops
        from sim.engine.tensor import convert_to_tensor
        tensor = convert_to_tensor(initial, dtype=dtype) if dtype is not None else convert_to_tensor(initial)
        array = np.asarray(_ops.to_numpy(tensor))
        if array.dtype.kind not in "biufc":
            return tensor
        (chief,) = self._fabric.broadcast([array])
        return _ops.like(chief.reshape(array.shape), tensor)

    # -- reductions: always the collective (across workers) --------------------------------------
    def _reduce_to(self, reduce_op, value, destinations, options):
        from sim.distribute.cross_device_ops import reduce_non_distributed_value
        if self._num_workers == 1:
            return super()._reduce_to(reduce_op, value, destinations, options)
        if not isinstance(value, DistributedValues):
            return reduce_non_distributed_value(reduce_op, value, destinations,
                                                self._num_replicas_in_sync)
        self._tag_devices(value)
        return self._collective_ops.batch_reduce_implementation(
            reduce_op, [(value, destinations)], options)[0]

    def _batch_reduce_to(self, reduce_op, pairs, options):
        if self._num_workers == 1:
            return super()._batch_reduce_to(reduce_op, pairs, options)
        if not all(isinstance(v, DistributedValues) for v, _ in pairs):
            return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]
        for v, _ in pairs:
            self._tag_devices(v)
        return self._collective_ops.batch_reduce_implementation(reduce_op, pairs, options)

    def _gather_to(self, value, destinations, axis):
        if self._num_workers > 1:
            raise NotImplementedError(
                "sim.tf does not support gather/all_gather across workers under "
                "MultiWorkerMirroredStrategy yet; reduce the values instead (strategy.reduce).")
        return super()._gather_to(value, destinations, axis)

    # -- input ----------------------------------------------------------------------------------
    def _experimental_distribute_dataset(self, dataset, options):
        from sim.distribute.multi_worker_input import distribute_dataset
        return distribute_dataset(self, dataset, options)

    def _distribute_datasets_from_function(self, dataset_fn, options):
        from sim.distribute.multi_worker_input import distribute_datasets_from_function
        return distribute_datasets_from_function(self, dataset_fn, options)


class ClusterSyncOnReadVariable(SyncOnReadVariable):
    """A SyncOnRead variable (a metric's total, count...) whose cross-replica read reduces over
    every replica of every worker, as TensorFlow's ``read_var``; so every worker must read it at
    the same point of its program (Keras does: logs, checkpoints)."""

    def _read_cross_replica(self):
        from sim.distribute import _ops
        agg = aggregation_name(self._aggregation)
        if agg not in ("SUM", "MEAN"):
            return super()._read_cross_replica()
        ext = self._distribute_strategy.extended
        parts = PerReplica(tuple(v._as_tensor() for v in self._values))
        op = ReduceOp.SUM if agg == "SUM" else ReduceOp.MEAN
        out = ext._collective_ops.batch_reduce_implementation(op, [(parts, ext._devices)], None)[0]
        first = out.values[0] if isinstance(out, DistributedValues) else out
        return _ops.like(_ops.to_numpy(first), self._values[0]._as_tensor())

    def _write(self, op, value):
        if op == "assign" and not self._in_replica() and len(self._values) > 1 \
                and aggregation_name(self._aggregation) == "SUM":
            from sim.distribute import _ops
            from sim.engine.tensor import convert_to_tensor
            t = convert_to_tensor(value, dtype=self.dtype)
            share = _ops.like(_ops.to_numpy(t) / self._distribute_strategy.num_replicas_in_sync, t)
            for v in self._values:
                v.assign(share)
            return self
        return super()._write(op, value)


def _machine_used():
    """Did simulated work already run (the clock moved) before the strategy was created?"""
    from sim.runtime import clock
    return bool(clock().steps)
