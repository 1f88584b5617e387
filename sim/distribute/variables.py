"""Distributed variables: one engine Variable per replica (or one for all), kept consistent.

* ``MirroredVariable`` (synchronization ON_WRITE/AUTO): a copy per replica, every write applied
  to all copies. In replica context SUM/MEAN writes are reduced first (a merge_call), NONE
  writes touch only the local copy (TF's ``_on_write_update_replica``).
* ``SyncOnReadVariable`` (ON_READ, used by metrics): replicas write their own copy; a read in
  cross-replica context aggregates them; a cross-replica SUM assign stores value/N per copy.
* ``AggregatingVariable`` (CentralStorageStrategy): one copy on the parameter device; replica
  writes are aggregated first and need an aggregation mode.
Each object answers ``_engine_variable()`` with the current replica's engine Variable, so
engine ops and GradientTape work on the right copy (the engine's distributed-variable protocol).
"""
from __future__ import annotations

import weakref

from sim.distribute import context, timing
from sim.distribute.errors import explain
from sim.distribute.reduce_op import ReduceOp, aggregation_name as _agg_name
from sim.distribute.variable_surface import VariableSurface
from sim.distribute.values import DistributedDelegate, PerReplica, current_replica_id


class DistributedVariable(VariableSurface, DistributedDelegate):
    """Base of the distributed variables: holds the components and the strategy."""

    _is_distributed_variable = True

    def __init__(self, strategy, values, aggregation):
        super().__init__(values)
        self._distribute_strategy = strategy
        self._aggregation = aggregation
        self._device_names = tuple(getattr(v, "_device_name", "") for v in values)
        container = weakref.ref(self)     # weak, as in TensorFlow: no component->container cycle
        for v in values:
            v._distributed_container = container

    def _engine_variable(self):
        return self._values[current_replica_id()] if len(self._values) > 1 else self._values[0]

    def _get(self):
        return self._engine_variable()

    def _as_tensor(self):
        return self._engine_variable()._as_tensor()

    # -- what it is --------------------------------------------------------------------------
    name = property(lambda self: self._values[0].name)
    dtype = property(lambda self: self._values[0].dtype)
    shape = property(lambda self: self._values[0].shape)
    trainable = property(lambda self: self._values[0].trainable)
    synchronization = property(lambda self: self._values[0].synchronization)
    aggregation = property(lambda self: self._aggregation)
    distribute_strategy = property(lambda self: self._distribute_strategy)
    ndim = property(lambda self: self._values[0].ndim)
    device = property(lambda self: self._device_names[min(current_replica_id(), len(self._device_names) - 1)])

    def numpy(self):
        return self._as_tensor().numpy()

    def __len__(self):
        return len(self._engine_variable())

    def __bool__(self):
        return bool(self._engine_variable())

    def __int__(self):
        return int(self._engine_variable())

    # -- writes ------------------------------------------------------------------------------
    def _in_replica(self):
        mode = context.current_mode()
        return mode.replica_context is not None and mode.strategy is self._distribute_strategy

    def _write_all(self, op, value):
        """Apply the same ``op(value)`` to every component (cross-replica write)."""
        with self._distribute_strategy.scope():
            self._distribute_strategy.extended.update(
                self, lambda var, x: getattr(var, op)(x), args=(value,), group=False)
        return self


class MirroredVariable(DistributedVariable):
    """Holds a map from replica to variables whose values are kept in sync."""

    def _write(self, op, value):
        if not self._in_replica():
            return self._write_all(op, value)
        agg = _agg_name(self._aggregation)
        if agg == "NONE" or len(self._values) == 1:
            getattr(self._engine_variable(), op)(value)
            return self
        ctx = context.get_replica_context()

        def merge_fn(strategy, v):
            if agg == "ONLY_FIRST_REPLICA":
                v = v.values[0] if isinstance(v, PerReplica) else v
            else:
                if agg == "MEAN" and not self.dtype.is_floating and isinstance(v, PerReplica):
                    raise ValueError(explain(
                        "Cannot update non-float variables with tf.VariableAggregation.MEAN "
                        "aggregation in replica context. Either change the variable dtype to float "
                        "or update it in cross-replica context.", "mean_non_float"))
                v = strategy.extended.reduce_to(ReduceOp[agg], v, destinations=self)
            strategy.extended.update(self, lambda var, x: getattr(var, op)(x), args=(v,),
                                     group=False)
            return self
        return ctx.merge_call(merge_fn, args=(value,))


class SyncOnReadVariable(DistributedVariable):
    """Holds a map from replica to variables whose values are reduced on save (and on read)."""

    def _as_tensor(self):
        if self._in_replica() or len(self._values) == 1:
            return self._engine_variable()._as_tensor()
        return self._read_cross_replica()

    def _read_cross_replica(self):
        from sim.distribute import _ops
        agg = _agg_name(self._aggregation)
        if agg == "ONLY_FIRST_REPLICA":
            return self._values[0]._as_tensor()
        if agg == "NONE":
            raise ValueError(explain(
                f"Could not convert from `tf.VariableAggregation` {self._aggregation} to "
                "`tf.distribute.ReduceOp` type", "sync_on_read_none"))
        total = self._values[0]._value.copy()
        for v in self._values[1:]:
            total = total + v._value
        if agg == "MEAN":
            total = total / len(self._values)
        return _ops.like(total.astype(self._values[0]._value.dtype, copy=False),
                         self._values[0]._as_tensor())

    def _write(self, op, value):
        if self._in_replica() or len(self._values) == 1:
            getattr(self._engine_variable(), op)(value)
            return self
        if op == "assign" and _agg_name(self._aggregation) == "SUM":
            from sim.distribute import _ops
            from sim.engine.tensor import convert_to_tensor
            t = convert_to_tensor(value, dtype=self.dtype)
            value = _ops.like(_ops.to_numpy(t) / len(self._values), t)
        for v in self._values:
            getattr(v, op)(value)
        return self


class AggregatingVariable(DistributedVariable):
    """One variable for all replicas (CentralStorage); replica writes are aggregated first.

    TensorFlow's AggregatingVariable (ps_values.py) is no DistributedValues: it wraps one
    ResourceVariable and hands it every attribute it lacks, so ``.values`` raises that variable's
    AttributeError (run on TF 2.21); sim's own code reads ``_values``."""

    _NOT_DISTRIBUTED = ("values",)

    def __getattribute__(self, name):
        if name in AggregatingVariable._NOT_DISTRIBUTED:
            return self.__getattr__(name)
        return super().__getattribute__(name)

    def __getattr__(self, name):
        if name in AggregatingVariable._NOT_DISTRIBUTED:
            raise AttributeError(f"'ResourceVariable' object has no attribute '{name}'")
        return super().__getattr__(name)

    def _engine_variable(self):
        if timing._active and timing._active[-1].reads is not None:
            timing._active[-1].note_read(self)     # a replica reading it pays a copy this step
        return self._values[0]

    def _write(self, op, value):
        if not self._in_replica() or self._distribute_strategy.num_replicas_in_sync == 1:
            getattr(self._values[0], op)(value)
            return self
        agg = _agg_name(self._aggregation)
        if agg == "NONE":
            raise ValueError(explain(
                "You must specify an aggregation method to update a a variable in Replica "
                "Context. You can do so by passing an explicit value for argument `aggregation` "
                "to tf.Variable(..).e.g. `tf.Variable(..., "
                "aggregation=tf.VariableAggregation.SUM)``tf.VariableAggregation` lists the "
                "possible aggregation methods.This is required because a variable in replica "
                "context is updated by each replica with a separate value, and those values must "
                "be combined into one update.", "aggregation_needed"))
        ctx = context.get_replica_context()

        def merge_fn(strategy, v):
            if agg == "ONLY_FIRST_REPLICA":
                v = v.values[0] if isinstance(v, PerReplica) else v
            else:
                v = strategy.extended.reduce_to(ReduceOp[agg], v, destinations=self)
            strategy.extended.update(self, lambda var, x: getattr(var, op)(x), args=(v,))
            return self
        return ctx.merge_call(merge_fn, args=(value,))


def check_variable_args(kwargs):
    """Validate synchronization and aggregation as TF does; returns (synchronization, aggregation)."""
    from sim.engine.variable import VariableAggregation, VariableSynchronization
    sync = kwargs.get("synchronization", VariableSynchronization.AUTO) or VariableSynchronization.AUTO
    agg = kwargs.get("aggregation", VariableAggregation.NONE) or VariableAggregation.NONE
    if sync == VariableSynchronization.NONE:
        raise ValueError(explain(
            "`NONE` variable synchronization mode is not supported with tf.distribute strategy. "
            "Please change the `synchronization` for variable: " + str(kwargs.get("name")),
            "sync_none"))
    if agg not in tuple(VariableAggregation):
        raise ValueError(explain(f"Invalid variable aggregation mode: {agg} for variable: "
                                 f"{kwargs.get('name')}", "invalid_aggregation"))
    return sync, agg
