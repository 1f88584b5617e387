"""``tf.distribute.MultiWorkerMirroredStrategy``: synchronous training over the GPUs of many workers.

Each worker is its own OS process started by the course launcher (``python -m sim launch``),
with its role in TF_CONFIG. The strategy is MirroredStrategy on the worker's own host (one
replica per local GPU, replica threads in lockstep), plus what makes it a cluster (§6.5):

* the simulated machine is the launch's cluster, one host per worker (sim.fabric.launch_machine),
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
from sim.distribute.cluster_variables import ClusterSyncOnReadVariable
from sim.distribute.collective_all_reduce import CollectiveAllReduce
from sim.distribute.communication_options import CommunicationImplementation, CommunicationOptions
from sim.distribute.mirrored import MirroredExtended, resolve_devices
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
        from sim.i18n import t
        return t("distribute.repr_replicas_workers", name=self._tf_name,
                 n=self.num_replicas_in_sync, workers=ext._num_workers)


class _CollectiveAllReduceStrategyExperimental(MultiWorkerMirroredStrategy):
    """``tf.distribute.experimental.MultiWorkerMirroredStrategy`` (deprecated): ``communication``
    is the old name of ``communication_options.implementation``."""

    def __init__(self, communication=CommunicationImplementation.AUTO, cluster_resolver=None,
                 communication_options=None):
        if communication_options is None:
            communication_options = CommunicationOptions(implementation=communication)
        super().__init__(cluster_resolver, communication_options)


def _cluster_preset():
    """The simulated cluster's preset and GPUs per worker (the launcher's, else the default)."""
    from sim.fabric import client
    gpus = os.environ.get(client.ENV_GPUS)
    return os.environ.get(client.ENV_MACHINE) or "workstation-4gpu", int(gpus) if gpus else None


class CollectiveAllReduceExtended(MirroredExtended):
    """Implementation of MultiWorkerMirroredStrategy."""

    _variable_class = "mirrored"

    def __init__(self, container_strategy, cluster_resolver, communication_options):
        from sim.distribute import tf_config
        from sim.distribute.cluster_resolver import TFConfigClusterResolver
        self._cluster_resolver = cluster_resolver or TFConfigClusterResolver()
        self._communication_options = communication_options
        self._fabric = None
        self._steps = 0
        self._fail_step = None
        found = tf_config.multi_worker_task(cluster_resolver)   # TF_CONFIG checked (§6.5)
        if found is None or found.task_type == "evaluator":
            self._setup_local(found)
        else:
            self._setup_cluster(found)
        super().__init__(container_strategy, devices=self._local_devices,
                         cross_device_ops=None)
        self._num_replicas_in_sync = len(self._devices) * self._num_workers
        self._replica_id_offset = self._rank * len(self._devices)    # replica ids are global
        self._cross_device_ops = self._collective_ops = CollectiveAllReduce(
            self._devices, self._num_replicas_in_sync, communication_options, self._fabric)
        self._inferred_cross_device_ops = self._collective_ops
        logger.info("MultiWorkerMirroredStrategy with task_type = %r, task_id = %r, num_workers = %r, "
                    "local_devices = %r", self._task_type, self._task_id, self._num_workers,
                    self._devices)

    # -- set-up -----------------------------------------------------------------------------
    def _setup_local(self, found):
        """No cluster (or an evaluator, a group of its own): this process's devices only."""
        self._task_type = found.task_type if found is not None else None
        self._task_id = found.task_id if found is not None else None
        self._num_workers, self._rank, self._is_chief = 1, 0, True
        self._local_devices = resolve_devices(None)

    def _setup_cluster(self, found):
        from sim.fabric import client
        from sim.distribute import startup_ops
        self._task_type, self._task_id = found.task_type, found.task_id
        self._rank, self._num_workers = found.id_in_cluster, found.worker_count
        self._is_chief = found.is_chief
        if startup_ops.stop_listening() > 0 or _machine_used():
            from sim.i18n import t
            text = "Collective ops must be configured at program startup"
            raise RuntimeError(text + "\n" + t("launch.startup"))
        preset, gpus = _cluster_preset()
        from sim.fabric import by_hand
        if client.launched():
            self._fabric = by_hand.join_launch(self._task_type, self._task_id)
        else:       # started by hand (TF_CONFIG=... python main.py &): meet at TF_CONFIG's addresses
            self._fabric = by_hand.join(found, preset, gpus)
        self._use_cluster_machine(preset, gpus)
        fail = os.environ.get(client.ENV_FAIL_STEP)
        self._fail_step = int(fail) if fail else None

    def _use_cluster_machine(self, preset, gpus):
        from sim.fabric.launch_machine import cluster_machine, local_devices
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
            if len(self._devices) == 1 and hasattr(value, "dtype"):
                value = PerReplica((value,))    # one local replica: its value is this worker's part
            else:
                return reduce_non_distributed_value(reduce_op, value, destinations,
                                                    self._num_replicas_in_sync)
        self._tag_devices(value)
        return self._collective_ops.batch_reduce_implementation(
            reduce_op, [(value, destinations)], options)[0]

    def _batch_reduce_to(self, reduce_op, pairs, options):
        if self._num_workers == 1:
            return super()._batch_reduce_to(reduce_op, pairs, options)
        if len(self._devices) == 1:
            pairs = [(v if isinstance(v, DistributedValues) or not hasattr(v, "dtype")
                      else PerReplica((v,)), d) for v, d in pairs]
        if not all(isinstance(v, DistributedValues) for v, _ in pairs):
            return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]
        for v, _ in pairs:
            self._tag_devices(v)
        return self._collective_ops.batch_reduce_implementation(reduce_op, pairs, options)

    def _gather_to(self, value, destinations, axis):
        """``strategy.gather``: every replica's piece of every worker, concatenated along ``axis``
        in replica order (the fabric hands each worker all the pieces; no simulated time)."""
        if self._num_workers == 1:
            return super()._gather_to(value, destinations, axis)
        if destinations is not None:      # ReplicaContext.all_gather: its gradient needs global rows
            raise NotImplementedError(
                "sim.tf does not support ReplicaContext.all_gather across workers under "
                "MultiWorkerMirroredStrategy yet; use strategy.gather(value, axis) outside "
                "strategy.run, or reduce the values instead.")
        import numpy as np

        from sim.distribute import _ops
        from sim.runtime import clock
        local = value._values if isinstance(value, DistributedValues) else (value,) * len(self._devices)
        arrays = [np.asarray(_ops.to_numpy(v)) for v in local]
        pieces = self._fabric.gather(arrays, arrive=clock().now)
        return _ops.like(np.concatenate(pieces, axis=axis), local[0])

    # -- input ----------------------------------------------------------------------------------
    def _experimental_distribute_values_from_function(self, value_fn):
        """``value_fn`` once per local replica, told its global replica id."""
        from sim.distribute.input import ValueContext
        from sim.distribute.values import regroup
        first = self._replica_id_offset
        values = [value_fn(ValueContext(first + i, self._num_replicas_in_sync))
                  for i in range(len(self._devices))]
        return self._tag_devices(regroup(values, PerReplica, always_wrap=True))

    def _experimental_distribute_dataset(self, dataset, options):
        from sim.distribute.multi_worker_input import distribute_dataset
        return distribute_dataset(self, dataset, options)

    def _distribute_datasets_from_function(self, dataset_fn, options):
        from sim.distribute.multi_worker_input import distribute_datasets_from_function
        return distribute_datasets_from_function(self, dataset_fn, options)


def _machine_used():
    """Did simulated work already run (the clock moved) before the strategy was created?"""
    from sim.runtime import clock
    return bool(clock().steps)
