"""``tf.distribute.ReplicaContext``: what code inside ``strategy.run`` sees.

It knows its replica id and offers the replica-to-replica operations: ``merge_call`` (switch
to cross-replica context with every replica's arguments grouped), ``all_reduce`` and
``all_gather`` (both built on merge_call, as in TensorFlow's distribute_lib.py).
"""
from __future__ import annotations

from sim.distribute import _grads, context
from sim.distribute.reduce_op import as_reduce_op
from sim.engine import nest


class ReplicaContext:
    """A replica's view of the strategy (``tf.distribute.ReplicaContext``)."""

    def __init__(self, strategy, replica_id_in_sync_group, local_replica_id=None):
        self._strategy = strategy
        # Under MultiWorkerMirroredStrategy this worker's first replica is not replica 0.
        offset = getattr(getattr(strategy, "extended", None), "_replica_id_offset", 0)
        self._replica_id_in_sync_group = replica_id_in_sync_group + offset
        self._local_replica_id = (replica_id_in_sync_group if local_replica_id is None
                                  else local_replica_id)
        self._thread = None   # the replica thread running us (MirroredStrategy), else None

    def __enter__(self):
        context.push_mode(context.replica_mode(self))
        return self

    def __exit__(self, *exc):
        context.pop_mode()

    @property
    def replica_id_in_sync_group(self):
        """This replica's id among all replicas, an int32 scalar tensor as in TensorFlow."""
        from sim.engine.tensor import constant
        return constant(self._replica_id_in_sync_group, dtype="int32")

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def strategy(self):
        return self._strategy

    @property
    def devices(self):
        return (self._strategy.extended.worker_devices[self._local_replica_id],)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Run ``merge_fn(strategy, *args)`` once in cross-replica context, all replicas' args grouped."""
        kwargs = kwargs or {}
        if self._thread is not None:
            return self._thread.merge_call(merge_fn, args, kwargs)
        return self._merge_here(merge_fn, args, kwargs)

    def _merge_here(self, merge_fn, args, kwargs):
        context.push_mode(context.cross_replica_mode(self._strategy))
        try:
            return merge_fn(self._strategy, *args, **kwargs)
        finally:
            context.pop_mode()

    def all_reduce(self, reduce_op, value, options=None):
        """Every replica gets the SUM (or MEAN) over all replicas of ``value`` (a nest of tensors).

        Differentiable as in TensorFlow: the gradient of an all-reduce is the same all-reduce
        of the upstream gradients (``_grads``).
        """
        reduce_op = as_reduce_op(reduce_op)
        flat = nest.flatten(value)
        reduced = self._all_reduce_flat(reduce_op, flat, options)
        if _grads.recording():
            _grads.record_all_reduce(self, reduce_op, flat, reduced, options)
        return nest.pack_sequence_as(value, list(reduced))

    def _all_reduce_flat(self, reduce_op, flat, options=None):
        def batch_all_reduce(strategy, *values):
            return strategy.extended.batch_reduce_to(reduce_op, [(v, v) for v in values], options)

        return list(self.merge_call(batch_all_reduce, args=tuple(flat)))

    def all_gather(self, value, axis, options=None):
        """Every replica gets the concatenation of all replicas' ``value`` along ``axis``.

        Differentiable as in TensorFlow: the gradient is the SUM all-reduce of the upstream
        gradient, sliced back to this replica's rows (``_grads``).
        """
        flat = nest.flatten(value)

        def gather_all(strategy, *values):
            return ([strategy.extended._gather_to(v, v, axis) for v in values],
                    [_grads.row_offsets(v, axis) for v in values])

        gathered, offsets = self.merge_call(gather_all, args=tuple(flat))
        if _grads.recording():
            _grads.record_all_gather(self, flat, gathered, offsets, axis)
        return nest.pack_sequence_as(value, list(gathered))

    def _update(self, var, fn, args=(), kwargs=None, group=True):
        """Run ``fn`` on this replica's component of ``var`` only (no aggregation)."""
        return fn(var._engine_variable() if hasattr(var, "_engine_variable") else var,
                  *args, **(kwargs or {}))

    def __repr__(self):
        return f"<tf.distribute.ReplicaContext replica {self._replica_id_in_sync_group} of " \
               f"{self.num_replicas_in_sync}>"


class DefaultReplicaContext(ReplicaContext):
    """The default strategy's replica context: its replica id is the Python int 0."""

    @property
    def replica_id_in_sync_group(self):
        return 0
