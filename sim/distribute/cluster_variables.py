"""MultiWorkerMirroredStrategy's sync-on-read variables: a cross-replica read reduces over every
replica of every worker (TensorFlow's ``read_var``), through the cluster's collective ops."""
from __future__ import annotations

from sim.distribute.reduce_op import ReduceOp
from sim.distribute.values import DistributedValues, PerReplica
from sim.distribute.reduce_op import aggregation_name
from sim.distribute.variables import SyncOnReadVariable


class ClusterSyncOnReadVariable(SyncOnReadVariable):
    """A SyncOnRead variable (a metric's total, count...) whose cross-replica read reduces over
    every replica of every worker, as TensorFlow's ``read_var``; so every worker must read it at
    the same point of its program (Keras does: logs, checkpoints)."""

    def _as_tensor(self):
        if self._in_replica():
            return self._engine_variable()._as_tensor()
        return self._read_cross_replica()     # even with one local replica: the others count

    def _read_cross_replica(self):
        from sim.distribute import _ops
        agg = aggregation_name(self._aggregation)
        if agg not in ("SUM", "MEAN"):
            return super()._read_cross_replica()
        ext = self._distribute_strategy.extended
        parts = PerReplica(tuple(v._as_tensor() for v in self._values))
        op = ReduceOp.SUM if agg == "SUM" else ReduceOp.MEAN
        out = ext._collective_ops.batch_reduce_implementation(op, [(parts, ext._devices)], None)[0]
        first = out._values[0] if isinstance(out, DistributedValues) else out
        return _ops.like(_ops.to_numpy(first), self._values[0]._as_tensor())

    def _write(self, op, value):
        if op == "assign" and not self._in_replica() \
                and aggregation_name(self._aggregation) == "SUM":
            from sim.distribute import _ops
            from sim.engine.tensor import convert_to_tensor
            t = convert_to_tensor(value, dtype=self.dtype)
            share = _ops.like(_ops.to_numpy(t) / self._distribute_strategy.num_replicas_in_sync, t)
            for v in self._values:
                v.assign(share)
            return self
        return super()._write(op, value)
