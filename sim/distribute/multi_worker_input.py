"""Input under MultiWorkerMirroredStrategy: which worker's replicas see which examples (§3.1-§3.3).

With W workers of R replicas (N = W·R) and a dataset batched by the global batch G, worker w
reads ``auto_shard(dataset, W, w, rebatch)`` (sim.distribute.auto_shard) and its R replicas take
consecutive per-replica batches of it. The rebatch is the one TensorFlow keeps for the policy
that runs:
* DATA (AUTO on an in-memory source, or asked), or an unknown batch size: the legacy split of
  each global batch into N slices of ceil(G/N) rows; DATA then keeps slices w, w+W, ..., so
  replica r of worker w gets slice w + r·W (T18, T19);
* FILE (AUTO on files, or asked) and OFF: RebatchV2 with ``batch_sizes_for_worker(G, W, R, w)``;
  FILE reads this worker's files only, OFF the whole dataset on every worker.
``distribute_datasets_from_function`` calls ``dataset_fn(InputContext(W, id_in_cluster, N))``
once on this worker and its replicas take consecutive elements (§3.2).
One worker (W = 1) is MirroredStrategy's input, unchanged.
"""
from __future__ import annotations

from sim.distribute import input as _input
from sim.distribute.errors import explain
from sim.distribute.input import DistributedDataset, InputContext, InputReplicationMode, _group
from sim.distribute.rebatch import batch_sizes_for_worker, legacy_split, rebatch_v2


def distribute_dataset(extended, dataset, options=None):
    W = extended._num_workers
    if W == 1:
        return _input.distribute_dataset(extended, dataset, options)
    if options is not None and options.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
        raise NotImplementedError(explain(
            "InputReplicationMode.PER_REPLICA is only supported in "
            "`experimental_distribute_datasets_from_function`.", "per_replica_mode"))
    from sim.data.options import AutoShardPolicy
    from sim.distribute.auto_shard import applied_policy, auto_shard, dataset_of_batches
    R, w = len(extended._devices), extended._rank
    N = W * R
    batch = dataset.compute_batch_size()
    if applied_policy(dataset, W) == AutoShardPolicy.DATA or batch == -1:
        split = _input.LEGACY

        def rebatch(ds):
            return dataset_of_batches(
                lambda: (s for slices in legacy_split(iter(ds), N) for s in slices), ds)
    else:
        split = _input.V2
        sizes = batch_sizes_for_worker(batch, W, R, w)
        drop = _input._drop_remainder(dataset)

        def rebatch(ds):
            return dataset_of_batches(lambda: rebatch_v2(iter(ds), sizes, drop), ds)
    mine = auto_shard(dataset, W, w, rebatch)
    if split == _input.LEGACY:       # every worker gets R slices of every global batch
        make = lambda: _group(iter(mine), R)  # noqa: E731
    else:                            # its own files or sizes: it may run out before the others
        make = lambda: in_step_with_the_others(extended, _group(iter(mine), R))  # noqa: E731
    ds = DistributedDataset(extended, make, dataset.element_spec)
    ds._split = split
    return ds


def in_step_with_the_others(extended, steps):
    """TensorFlow all-reduces each step's "has data" flag across the workers (§3.1): a worker
    whose data ended runs steps of empty batches until no worker has data left, so every worker
    runs the same number of steps (and the same collectives)."""
    import numpy as np

    from sim.distribute.rebatch import empty_like
    fabric = getattr(extended, "_fabric", None)
    template = None
    for parts in steps:
        template = parts
        if fabric is not None:
            fabric.all_reduce([np.ones(1)], extended._devices[:1], 0.0, "ring")
        yield parts
    if fabric is None or template is None:
        return
    while True:
        (others,), _, _ = fabric.all_reduce([np.zeros(1)], extended._devices[:1], 0.0, "ring")
        if others[0] == 0:
            return
        yield [empty_like(template[0]) for _ in template]


def distribute_datasets_from_function(extended, dataset_fn, options=None):
    W = extended._num_workers
    if W == 1:
        return _input.distribute_datasets_from_function(extended, dataset_fn, options)
    R = len(extended._devices)
    dataset = dataset_fn(InputContext(W, extended._rank, extended._num_replicas_in_sync))
    return DistributedDataset(extended,
                              lambda: in_step_with_the_others(extended, _group(iter(dataset), R)),
                              dataset.element_spec)
