"""The few tf.distribute calls Keras makes, in one place.

Keras code is written against ``sim.tf``'s TensorFlow names (``tf.distribute.get_strategy``,
``strategy.run``, ``get_replica_context().all_reduce``...) so it runs unchanged under any
strategy. Until ``sim.tf.distribute`` exists (a colleague's module), a pass-through default
strategy stands in so single-device Keras still works.
"""
from __future__ import annotations

import contextlib

import sim.tf as tf


class _FallbackExtended:
    should_checkpoint = True
    should_save_summary = True
    _task_id = None

    def __init__(self, strategy):
        self._container_strategy = strategy

    def update(self, var, fn, args=(), kwargs=None, group=True):
        return fn(var, *args, **(kwargs or {}))

    def variable_created_in_scope(self, v):
        return getattr(v, "_distribute_strategy", None) is None

    def _in_multi_worker_mode(self):
        return False

    @contextlib.contextmanager
    def colocate_vars_with(self, v):
        yield


class _FallbackReplicaContext:
    replica_id_in_sync_group = 0
    num_replicas_in_sync = 1

    def __init__(self, strategy):
        self.strategy = strategy

    def all_reduce(self, reduce_op, value, options=None):
        return value

    def merge_call(self, merge_fn, args=(), kwargs=None):
        return merge_fn(self.strategy, *args, **(kwargs or {}))


class _FallbackStrategy:
    """Stands in for the default strategy while sim.tf.distribute is missing."""

    num_replicas_in_sync = 1

    def __init__(self):
        self.extended = _FallbackExtended(self)

    @contextlib.contextmanager
    def scope(self):
        yield self

    def run(self, fn, args=(), kwargs=None, options=None):
        return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op, value, axis=None):
        if axis is None:
            return value
        op = str(getattr(reduce_op, "value", reduce_op)).upper()
        return tf.reduce_sum(value, axis) if op == "SUM" else tf.reduce_mean(value, axis)

    def experimental_local_results(self, value):
        return (value,)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(None)


_FALLBACK = _FallbackStrategy()


def _dist():
    return getattr(tf, "distribute", None)


def available() -> bool:
    d = _dist()
    return d is not None and hasattr(d, "get_strategy")


def get_strategy():
    return tf.distribute.get_strategy() if available() else _FALLBACK


def has_strategy() -> bool:
    return tf.distribute.has_strategy() if available() else False


def get_replica_context():
    return tf.distribute.get_replica_context() if available() else _FallbackReplicaContext(_FALLBACK)


def in_cross_replica_context() -> bool:
    return tf.distribute.in_cross_replica_context() if available() else False


def num_replicas() -> int:
    """Replicas in sync from the replica context, else the current strategy (as TF's losses do)."""
    ctx = get_replica_context()
    if ctx is not None:
        return int(ctx.num_replicas_in_sync)
    return int(get_strategy().num_replicas_in_sync)


def sum_op():
    return tf.distribute.ReduceOp.SUM if available() else "SUM"


def is_tpu_strategy(strategy) -> bool:
    return "TPUStrategy" in type(strategy).__name__


def is_ps_strategy(strategy) -> bool:
    return "ParameterServerStrategy" in type(strategy).__name__


def is_distributed_value(v) -> bool:
    d = _dist()
    cls = getattr(d, "DistributedValues", None) if d is not None else None
    return cls is not None and isinstance(v, cls)


def local_results(strategy, v):
    return tuple(strategy.experimental_local_results(v))


def reduce_per_replica(values, strategy, reduction="auto"):
    """tf-keras ``reduce_per_replica``: "auto" is "first" on TPU, otherwise "sum".

    Values every replica computed through a merge_call (synchronised metric results) arrive
    as one object per replica; they are the same value, so the first is taken.
    """
    if reduction == "auto":
        reduction = "first" if is_tpu_strategy(strategy) else "sum"

    # Keras's _collective_all_reduce_multi_worker: MWMS spanning several workers (not a ps cluster)
    gather_workers = (reduction == "concat" and multi_worker(strategy)
                      and any(c.__name__ == "MultiWorkerMirroredStrategy"
                              for c in type(strategy).__mro__))

    def _reduce(v):
        if gather_workers and (is_distributed_value(v) or hasattr(v, "dtype")):
            from sim.keras.multi_worker_concat import multi_worker_concat
            return multi_worker_concat(v, strategy)
        if not is_distributed_value(v):
            return v
        parts = local_results(strategy, v)
        mirrored = type(v).__name__ in ("Mirrored", "MirroredVariable")
        if reduction == "first" or mirrored or all(p is parts[0] for p in parts):
            return parts[0]
        if reduction == "concat":
            return tf.concat(list(parts), axis=0)
        if reduction == "sum":
            return tf.add_n(list(parts))
        raise ValueError(
            '`reduction` must be "first", "concat", "sum", or "auto". '
            f"Received: reduction={reduction}."
        )

    return map_structure(_reduce, values)


def map_structure(fn, structure):
    """A small tf.nest.map_structure over dicts, lists and tuples."""
    if isinstance(structure, dict):
        return type(structure)((k, map_structure(fn, v)) for k, v in structure.items())
    if isinstance(structure, (list, tuple)) and not hasattr(structure, "_fields"):
        return type(structure)(map_structure(fn, v) for v in structure)
    return fn(structure)


def multi_worker(strategy) -> bool:
    ext = strategy.extended
    fn = getattr(ext, "_in_multi_worker_mode", None)
    return bool(fn()) if callable(fn) else False
