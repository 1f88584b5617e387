"""``experimental_distribute_dataset`` and ``distribute_datasets_from_function``.

The user batches by the global batch size; each global batch is cut between the replicas by
the algorithm TensorFlow would pick (§3.1 policy table, see ``choose_split``). Each step gives
a nest whose leaves are PerReplica values. Replicas with no data in the last step get an empty
dummy batch (0 rows); iteration stops only when no replica has data.
"""
from __future__ import annotations

from sim.distribute.errors import explain
from sim.distribute.input_context import (InputContext, InputOptions,  # noqa: F401 (re-exports)
                                          InputReplicationMode, ValueContext)
from sim.distribute.rebatch import batch_sizes_for_worker, empty_like, legacy_split, rebatch_v2
from sim.distribute.values import PerReplica, regroup

LEGACY, V2, NONE = "legacy", "rebatch_v2", "none"


def choose_split(dataset, num_replicas, num_workers=1):
    """Which split TensorFlow applies (§3.1): legacy unless the policy keeps RebatchV2."""
    if num_replicas == 1:
        return NONE
    if dataset.compute_batch_size() == -1:
        return LEGACY
    from sim.data.options import AutoShardPolicy
    policy = dataset.options().experimental_distribute.auto_shard_policy
    if policy == AutoShardPolicy.OFF or policy == AutoShardPolicy.FILE:
        return V2
    if policy == AutoShardPolicy.AUTO and dataset.is_file_based():
        return V2
    return LEGACY


def _drop_remainder(dataset):
    node = dataset
    while node is not None:
        if node._kind == "batch":
            return node._drop_remainder
        if not node._keeps_batches():
            return False
        node = node._input
    return False


class DistributedDataset:
    """A dataset whose elements are split between replicas (``tf.distribute.DistributedDataset``)."""

    def __init__(self, extended, make_steps, element_spec=None):
        self._extended = extended
        self._make_steps = make_steps
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def __iter__(self):
        return DistributedIterator(self._extended, self._make_steps(), self._element_spec)

    def __repr__(self):
        from sim.i18n import t
        return t("distribute.repr_dataset", n=self._extended._num_replicas_in_sync)


class DistributedIterator:
    """An iterator over a DistributedDataset: ``next``, ``get_next``, ``get_next_as_optional``."""

    def __init__(self, extended, steps, element_spec=None):
        self._extended = extended
        self._steps = steps
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def __iter__(self):
        return self

    def __next__(self):
        try:
            parts = next(self._steps)
        except StopIteration:
            from sim.engine.errors import EndOfDataset
            raise EndOfDataset from None
        if len(parts) == 1:
            return parts[0]
        return self._extended._tag_devices(regroup(parts, PerReplica, always_wrap=True))

    def get_next(self):
        try:
            return self.__next__()
        except StopIteration:
            from sim.engine.errors import OutOfRangeError
            raise OutOfRangeError(None, None, explain("End of sequence", "end_of_data")) from None

    def get_next_as_optional(self):
        from sim.data.iterator import Optional
        try:
            return Optional(self.__next__())
        except StopIteration:
            return Optional(None, empty=True)


def _group(stream, n):
    """Take ``n`` consecutive per-replica batches per step; pad a short last step with dummies."""
    it = iter(stream)
    while True:
        parts = []
        for _ in range(n):
            try:
                parts.append(next(it))
            except StopIteration:
                break
        if not parts:
            return
        while len(parts) < n:
            parts.append(empty_like(parts[0]))
        yield parts


def distribute_dataset(extended, dataset, options=None):
    """``strategy.experimental_distribute_dataset(dataset)`` for a single-worker strategy."""
    if options is not None and options.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
        raise NotImplementedError(explain(
            "InputReplicationMode.PER_REPLICA is only supported in "
            "`experimental_distribute_datasets_from_function`.", "per_replica_mode"))
    n = extended._num_replicas_in_sync
    split = choose_split(dataset, n)
    if split == NONE:
        def make():
            return ([b] for b in dataset)
    elif split == LEGACY:
        def make():
            return legacy_split(iter(dataset), n)
    else:
        sizes = batch_sizes_for_worker(dataset.compute_batch_size(), 1, n, 0)
        drop = _drop_remainder(dataset)

        def make():
            return _group(rebatch_v2(iter(dataset), sizes, drop), n)
    ds = DistributedDataset(extended, make, dataset.element_spec)
    ds._split = split
    return ds


def distribute_datasets_from_function(extended, dataset_fn, options=None):
    """Call ``dataset_fn(InputContext)``; replica r takes elements r, r+N, ... (no rebatch)."""
    n = extended._num_replicas_in_sync
    if options is not None and options.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
        datasets = [dataset_fn(InputContext(n, r, n)) for r in range(n)]

        def make():
            its = [iter(d) for d in datasets]

            def steps():
                while True:
                    parts = [next(i, None) for i in its]
                    if all(p is None for p in parts):
                        return
                    first = next(p for p in parts if p is not None)
                    yield [p if p is not None else empty_like(first) for p in parts]
            return steps()
        return DistributedDataset(extended, make, datasets[0].element_spec)
    dataset = dataset_fn(InputContext(1, 0, n))

    def make():
        return _group(iter(dataset), n)
    return DistributedDataset(extended, make, dataset.element_spec)
