"""Input under MultiWorkerMirroredStrategy: which worker's replicas see which examples (§3.1-§3.3).

With W workers of R replicas (N = W·R) and a dataset batched by the global batch G:
* legacy split (AUTO on an in-memory source, DATA, or an unknown batch size): each global batch
  is cut into N slices of ceil(G/N) rows; worker w keeps slices w, w+W, ... (the DATA shard taken
  at the end of the pipeline), so its replica r gets slice w + r·W (T18, T19);
* RebatchV2 (OFF, or FILE on a file-based source): worker w rebatches its stream with
  ``batch_sizes_for_worker(G, W, R, w)`` and its replicas take consecutive pieces; under OFF
  every worker reads the whole dataset.
``distribute_datasets_from_function`` calls ``dataset_fn(InputContext(W, id_in_cluster, N))``
once on this worker and its replicas take consecutive elements (§3.2).
One worker (W = 1) is MirroredStrategy's input, unchanged.
"""
from __future__ import annotations

from sim.distribute import input as _input
from sim.distribute.input import (LEGACY, NONE, DistributedDataset, InputContext,
                                  InputReplicationMode, _drop_remainder, _group)
from sim.distribute.errors import explain
from sim.distribute.rebatch import batch_sizes_for_worker, legacy_split, rebatch_v2


def _policy(dataset):
    from sim.data.options import AutoShardPolicy
    policy = dataset.options().experimental_distribute.auto_shard_policy
    if policy == AutoShardPolicy.AUTO:
        return AutoShardPolicy.FILE if dataset.is_file_based() else AutoShardPolicy.DATA
    return policy


class _LocalView:
    """The extended as single-worker input code sees it: N = the local replicas."""

    def __init__(self, extended):
        self._extended = extended
        self._num_replicas_in_sync = len(extended._devices)

    def __getattr__(self, name):
        return getattr(self._extended, name)


def distribute_dataset(extended, dataset, options=None):
    W = extended._num_workers
    if W == 1:
        return _input.distribute_dataset(_LocalView(extended), dataset, options)
    if options is not None and options.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
        raise NotImplementedError(explain(
            "InputReplicationMode.PER_REPLICA is only supported in "
            "`experimental_distribute_datasets_from_function`.", "per_replica_mode"))
    from sim.data.options import AutoShardPolicy
    R, w = len(extended._devices), extended._rank
    N = W * R
    policy = _policy(dataset)
    split = _input.choose_split(dataset, N, W)
    if policy == AutoShardPolicy.FILE:
        dataset = _shard_files(dataset, W, w)
    if split in (LEGACY, NONE):
        keep = [w + r * W for r in range(R)] if policy != AutoShardPolicy.OFF else None

        def make():
            for slices in legacy_split(iter(dataset), N):
                if keep is not None:
                    yield [slices[k] for k in keep]
                else:
                    for i in range(0, N, R):
                        yield slices[i:i + R]
    else:
        sizes = batch_sizes_for_worker(dataset.compute_batch_size(), W, R, w)
        drop = _drop_remainder(dataset)

        def make():
            return _group(rebatch_v2(iter(dataset), sizes, drop), R)
    ds = DistributedDataset(extended, make, dataset.element_spec)
    ds._split = split
    return ds


def _shard_files(dataset, num_workers, index):
    """FILE policy: this worker reads its share of the files (sim.distribute.auto_shard)."""
    try:
        from sim.distribute import auto_shard
    except ImportError:
        raise NotImplementedError("sim.tf does not support the FILE auto-shard policy yet; use "
                                  "AutoShardPolicy.DATA or OFF.") from None
    return auto_shard.shard_files(dataset, num_workers, index)


def distribute_datasets_from_function(extended, dataset_fn, options=None):
    W = extended._num_workers
    if W == 1:
        return _input.distribute_datasets_from_function(_LocalView(extended), dataset_fn, options)
    R = len(extended._devices)
    dataset = dataset_fn(InputContext(W, extended._rank, extended._num_replicas_in_sync))

    def make():
        return _group(iter(dataset), R)
    return DistributedDataset(extended, make, dataset.element_spec)
