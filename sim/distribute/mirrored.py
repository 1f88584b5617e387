"""``tf.distribute.MirroredStrategy``: synchronous training on the GPUs of one machine.

One replica per device, a copy of every variable on each device (MirroredVariable), replicas
run in lockstep threads (replica_run.py) and their gradients are combined by the cross-device
ops (NCCL by default on GPUs, §8.1). ``devices=None`` takes every GPU of the simulated machine,
or its CPU when it has none.
"""
from __future__ import annotations

import logging
import weakref

from sim.distribute import _machine, context
from sim.distribute import timing as _timing
from sim.distribute.cross_device_ops import (CrossDeviceOps, ReductionToOneDevice, devices_of,
                                             reduce_non_distributed_value, select_cross_device_ops)
from sim.distribute.errors import explain
from sim.distribute.reduce_op import ReduceOp
from sim.distribute.replica_context import ReplicaContext
from sim.distribute.replica_run import ThreadPool, run_replicas
from sim.distribute.strategy import Strategy, StrategyExtended
from sim.distribute.values import (DistributedValues, Mirrored, PerReplica, regroup, select_replica,
                                    split_replicas)
from sim.engine import nest
from sim.engine.counting import counting

logger = logging.getLogger("tensorflow")


class MirroredStrategy(Strategy):
    """Synchronous training across multiple replicas on one machine."""

    _tf_name = "tf.distribute.MirroredStrategy"

    def __init__(self, devices=None, cross_device_ops=None):
        super().__init__(MirroredExtended(self, devices, cross_device_ops))

    def __repr__(self):
        from sim.i18n import t
        return t("distribute.repr_on_devices", name=self._tf_name, n=len(self.extended._devices))


def resolve_devices(devices):
    """Canonical names of the requested devices (all GPUs, else the CPU, when None)."""
    if devices is None:
        from sim.distribute.strategy_placement import logical_cpus
        # TensorFlow's default: every GPU, else every logical CPU (one unless configured)
        devices = _machine.local_devices("GPU") or logical_cpus() or _machine.local_devices("CPU")[:1]
    elif isinstance(devices, str):
        devices = [devices]
    devices = list(devices)
    if not devices:
        raise ValueError(explain("Got an empty `devices` list and unable to recognize any local "
                                 "devices.", "empty_devices"))
    names = tuple(_machine.canonical(d) for d in devices)
    if len(set(names)) != len(names):
        raise AssertionError(explain(f"No duplicates allowed in `devices` argument: {devices}",
                                     "duplicate_devices"))
    return names


class MirroredExtended(StrategyExtended):
    """Implementation of MirroredStrategy."""

    _variable_class = "mirrored"

    def __init__(self, container_strategy, devices=None, cross_device_ops=None):
        super().__init__(container_strategy)
        self._devices = resolve_devices(devices)
        self._num_replicas_in_sync = len(self._devices)
        self._cross_device_ops = cross_device_ops
        self._inferred_cross_device_ops = (select_cross_device_ops(self._devices)
                                           if cross_device_ops is None else cross_device_ops)
        from sim.distribute.communication_options import CommunicationOptions
        self._communication_options = CommunicationOptions()
        self._pools = []
        self._shared_variables = []
        self._host_device = (_machine.local_devices("CPU") or self._devices)[0]
        logger.info("Using MirroredStrategy with devices %s", self._devices)
        if len(self._devices) > 1:      # start the replica threads now, not in the first step
            self._release_pool(self._take_pool())

    # -- threads ----------------------------------------------------------------------------
    def _take_pool(self):
        for pool in self._pools:
            if not pool.busy:
                pool.busy = True
                return pool
        pool = ThreadPool(len(self._devices))
        pool.busy = True
        self._pools.append(pool)
        weakref.finalize(self, pool.close)
        return pool

    def _release_pool(self, pool):
        pool.busy = False

    def _tag_devices(self, structure):
        if isinstance(structure, PerReplica):
            if getattr(structure, "_device_names", None) is None \
                    and len(structure._values) == len(self._devices):
                structure._device_names = self._devices
            return structure
        if not isinstance(structure, (list, tuple, dict)):
            return structure
        devices = self._devices
        n = len(devices)
        for x in nest.flatten(structure):
            if isinstance(x, PerReplica) and getattr(x, "_device_names", None) is None \
                    and len(x._values) == n:
                x._device_names = devices
        return structure

    # -- running ----------------------------------------------------------------------------
    def _call_for_each_replica(self, fn, args, kwargs):
        outer = _timing.current()
        if len(self._devices) == 1:
            # One replica: a 1-component PerReplica (distribute_values_from_function's result)
            # hands its value, as TensorFlow's select_replica does.
            args, kwargs = select_replica(0, args), select_replica(0, kwargs)
            ctx = ReplicaContext(self._container_strategy(), 0)
            if outer is not None:
                with ctx:
                    return fn(*args, **kwargs)
            with counting() as c, self._step_timer(c):
                with ctx:
                    return fn(*args, **kwargs)
        if outer is not None:
            return self._tag_devices(run_replicas(self, fn, args, kwargs, outer))
        with counting() as c, self._step_timer(c) as timer:
            return self._tag_devices(run_replicas(self, fn, args, kwargs, timer))

    def _step_timer(self, counter):
        return _timing.StepTimer(self, self._devices, counter)

    # -- variables --------------------------------------------------------------------------
    def _create_variable(self, next_creator, **kwargs):
        mode = context.current_mode()
        ctx = mode.replica_context
        if ctx is not None and ctx._thread is not None:
            # Replica 0 creates the variable; the other replicas get the same one, in creation
            # order (TF's shared_variable_creator).
            t = ctx._thread
            k = t.vars_created
            t.vars_created += 1
            if ctx._local_replica_id > 0:
                return self._shared_variables[k]
            v = self._create_cross_replica(next_creator, kwargs)
            self._shared_variables.append(v)
            return v
        return self._create_cross_replica(next_creator, kwargs)

    def _create_cross_replica(self, next_creator, kwargs):
        from sim.distribute.variables import check_variable_args
        sync, agg = check_variable_args(kwargs)
        colocate = self._colocate_with[-1] if self._colocate_with else None
        devices = getattr(colocate, "_device_names", None) or self._devices
        return self._make_variable(next_creator, kwargs, sync, agg, devices)

    def _make_variable(self, next_creator, kwargs, sync, agg, devices):
        from sim.distribute.variables import MirroredVariable, SyncOnReadVariable
        from sim.engine.device import device
        from sim.engine.variable import VariableSynchronization
        kwargs = dict(kwargs)
        kwargs.pop("colocate_with", None)
        kwargs["synchronization"], kwargs["aggregation"] = sync, agg
        base = kwargs.get("name") or "Variable"
        initial = kwargs.get("initial_value")
        if callable(initial):
            kwargs["initial_value"] = initial = initial()
        values = []
        for i, d in enumerate(devices):
            kw = dict(kwargs)
            if i > 0:
                kw["name"] = f"{base.split(':')[0]}/replica_{i}"
                kw["initial_value"] = values[0].read_value() if hasattr(values[0], "read_value") else initial
            with device(d):
                v = next_creator(**kw)
            v._device_name = d
            values.append(v)
        cls = SyncOnReadVariable if sync == VariableSynchronization.ON_READ else MirroredVariable
        return cls(self._container_strategy(), values, agg)

    # -- reductions -------------------------------------------------------------------------
    def _get_cross_device_ops(self, value=None):
        return self._inferred_cross_device_ops

    def _reduce(self, reduce_op, value):
        return self._local_results(self._reduce_to(reduce_op, value, self._host_device, None))[0]

    def _reduce_to(self, reduce_op, value, destinations, options):
        if isinstance(value, Mirrored) and reduce_op == ReduceOp.MEAN:
            return value

        def get_values(v):
            if not isinstance(v, DistributedValues):
                return reduce_non_distributed_value(reduce_op, v, destinations,
                                                    self._num_replicas_in_sync)
            self._tag_devices(v)
            if devices_of(v) != devices_of(destinations) or \
                    any("CPU" in d.upper() for d in devices_of(destinations)):
                return ReductionToOneDevice().reduce(reduce_op, v, destinations)
            return self._get_cross_device_ops(v).reduce(reduce_op, v, destinations, options)
        if isinstance(value, DistributedValues):
            return get_values(value)
        return nest.map_structure(get_values, value)

    def _batch_reduce_to(self, reduce_op, pairs, options):
        if not all(isinstance(v, DistributedValues) for v, _ in pairs):
            return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]
        for v, _ in pairs:
            self._tag_devices(v)
        return self._get_cross_device_ops().batch_reduce(reduce_op, pairs, options)

    def _gather_to(self, value, destinations, axis):
        dest = destinations if destinations is not None else self._host_device
        ops = self._get_cross_device_ops()
        if not isinstance(ops, CrossDeviceOps):
            ops = ReductionToOneDevice()
        return ops._gather(value, dest, axis)

    # -- updates ----------------------------------------------------------------------------
    def _update(self, var, fn, args, kwargs, group):
        components = var._values if getattr(var, "_is_distributed_variable", False) else (var,)
        timer = _timing.current()
        n = len(components)
        strategy = self._container_strategy()
        pushed = context.current_mode().cross_replica_context is not strategy
        if pushed:
            context.push_mode(context.cross_replica_mode(strategy))
        try:
            if n == 1:
                if timer is not None:
                    timer.charge_to(timer.update_lane)
                updates = [fn(components[0], *select_replica(0, args), **select_replica(0, kwargs))]
            else:
                # One walk of args/kwargs for all components (select_replica per component).
                comp_args = split_replicas(args, n)
                comp_kwargs = split_replicas(kwargs, n) if kwargs else None
                updates = []
                for i, v in enumerate(components):
                    if timer is not None:
                        timer.charge_to(i)
                    if comp_kwargs is None:
                        updates.append(fn(v, *comp_args[i]))
                    else:
                        updates.append(fn(v, *comp_args[i], **comp_kwargs[i]))
            if timer is not None:
                timer.charge_to(None)
        finally:
            if pushed:
                context.pop_mode()
        if n == 1:
            return updates[0]
        return regroup(updates, Mirrored)

    # -- input ------------------------------------------------------------------------------
    def _experimental_distribute_values_from_function(self, value_fn):
        from sim.distribute.input import ValueContext
        values = [value_fn(ValueContext(i, self._num_replicas_in_sync))
                  for i in range(self._num_replicas_in_sync)]
        return self._tag_devices(regroup(values, PerReplica, always_wrap=True))

    def _local_results(self, value):
        if isinstance(value, DistributedValues):
            return value._values
        if isinstance(value, (list, tuple, dict)):
            flat = nest.flatten(value)
            if any(isinstance(x, DistributedValues) for x in flat):
                return tuple(nest.map_structure(lambda x, i=i: select_replica(i, x), value)
                             for i in range(len(self._devices)))
        return (value,)

