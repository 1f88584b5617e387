"""TensorFlow's auto-shard rewrite for one worker of a multi-worker strategy (§3.3, T18, T19).

``auto_shard(dataset, num_workers, worker_index, rebatch=None)`` returns what worker
``worker_index`` reads, by the dataset's ``auto_shard_policy``:

- FILE: walk back from the end of the pipeline through the transformations that keep
  elements whole (batch, map, shuffle...) to a file reader (``TFRecordDataset``,
  ``TextLineDataset``, or a ``flat_map``/``interleave`` whose function builds one); shard its
  file names ``shard(W, w)``; a ``shuffle`` of the names (``list_files``) moves after that
  shard, so every worker shards the same sorted list. Fewer files than workers is an
  InvalidArgumentError when the data is read. No reader found: NotFoundError.
- DATA: every worker reads everything and keeps every W-th element of ``rebatch(dataset)``
  (the per-replica batches), starting at its index.
- AUTO: FILE, and DATA when no reader is found (TensorFlow logs a warning then).
- OFF, or one worker: ``rebatch(dataset)`` unchanged.

``rebatch`` is the caller's split of global batches into per-replica batches (a function
Dataset -> Dataset); TensorFlow rewrites the pipeline with the rebatch already in it, so
FILE shards upstream of it and DATA downstream.
"""
from __future__ import annotations

import copy
import itertools

from sim.data.dataset import Dataset
from sim.data.options import AutoShardPolicy
from sim.data.transforms.slicing import _ShardDataset

READERS = ("TFRecordDataset", "TextLineDataset")
FUNCTION_READERS = ("flat_map", "interleave")
UNSHARDABLE_SOURCES = ("from_generator", "range", "from_tensors", "from_tensor_slices")
PASS_THROUGH = ("batch", "cache", "filter", "map", "prefetch", "options", "repeat", "shard",
                "shuffle", "skip", "take", "rebatch")


class NoShardableSource(Exception):
    """No file reader upstream (TensorFlow's NotFound status inside the rewrite)."""


def policy_of(dataset):
    return AutoShardPolicy(dataset.options().experimental_distribute.auto_shard_policy)


def applied_policy(dataset, num_workers):
    """The policy that really runs: OFF for one worker; AUTO resolved to FILE or DATA."""
    policy = policy_of(dataset)
    if num_workers == 1 or policy == AutoShardPolicy.OFF:
        return AutoShardPolicy.OFF
    if policy == AutoShardPolicy.AUTO:
        try:
            shard_files(dataset, num_workers, 0)
        except NoShardableSource:
            return AutoShardPolicy.DATA
        return AutoShardPolicy.FILE
    return policy


def auto_shard(dataset, num_workers, worker_index, rebatch=None):
    """What worker ``worker_index`` of ``num_workers`` reads (see the module docstring)."""
    _check(num_workers, worker_index)
    rebatch = rebatch or (lambda ds: ds)
    policy = policy_of(dataset)
    if policy == AutoShardPolicy.OFF or (num_workers == 1 and worker_index == 0):
        return rebatch(dataset)
    if policy == AutoShardPolicy.HINT:
        from sim.engine.errors import UnimplementedError
        from sim.i18n import t
        raise UnimplementedError(None, None, "AutoShardPolicy.HINT is not simulated. "
                                 + t("datafiles.hint_policy"))
    if policy == AutoShardPolicy.DATA:
        return RequiredShard(rebatch(dataset), num_workers, worker_index)
    try:
        return rebatch(shard_files(dataset, num_workers, worker_index))
    except NoShardableSource as reason:
        if policy == AutoShardPolicy.FILE:
            from sim.engine.errors import NotFoundError
            from sim.i18n import t
            raise NotFoundError(None, None, f"{reason} Consider either turning off auto-sharding or "
                                "switching the auto_shard_policy to DATA to shard this dataset. "
                                "You can do this by creating a new `tf.data.Options()` object then "
                                "setting `options.experimental_distribute.auto_shard_policy = "
                                "AutoShardPolicy.DATA` before applying the options object to the "
                                "dataset via `dataset.with_options(options)`.\n"
                                + t("datafiles.file_policy_no_files")) from None
        return RequiredShard(rebatch(dataset), num_workers, worker_index)


def _check(num_workers, worker_index):
    from sim.engine.errors import InvalidArgumentError
    if int(num_workers) < 1:
        raise InvalidArgumentError(None, None, f"num_workers should be >= 1, currently {num_workers}")
    if not 0 <= int(worker_index) < int(num_workers):
        raise InvalidArgumentError(None, None, f"index should be >= 0 and < {num_workers}, "
                                   f"currently {worker_index}")


# -- FILE: shard the file names -----------------------------------------------------------------
def shard_files(node, num_workers, worker_index):
    """``node`` rebuilt with its file names sharded; NoShardableSource if none is reached."""
    kind = node._kind
    if kind in READERS or (kind in FUNCTION_READERS and node.reads_files()):
        names = _shard_names(node._input, num_workers, worker_index)
        return _with_input(node, names)
    if kind == "concatenate":
        out = _with_input(node, shard_files(node._input, num_workers, worker_index))
        out._other = shard_files(node._other, num_workers, worker_index)
        return out
    if kind == "zip":
        from sim.engine import nest
        out = copy.copy(node)
        out._datasets = nest.map_structure(
            lambda d: shard_files(d, num_workers, worker_index), node._datasets)
        return out
    if kind in UNSHARDABLE_SOURCES:
        raise NoShardableSource(f"Found an unshardable source dataset: {kind}.")
    if kind not in PASS_THROUGH or node._input is None:
        raise NoShardableSource(f"Did not find a shardable source, walked to a node which is not "
                                f"a dataset: {kind}.")
    return _with_input(node, shard_files(node._input, num_workers, worker_index))


def _shard_names(names, num_workers, worker_index):
    """``shard(W, w)`` right after the names, with their shuffle moved after the shard."""
    unshuffled, shuffle = _without_shuffles(names)
    sharded = RequiredShard(unshuffled, num_workers, worker_index)
    if shuffle is None:
        return sharded
    moved = _with_input(shuffle, sharded)
    moved._passes = 0
    return moved


def _without_shuffles(node):
    """``node``'s chain without its shuffle nodes, and the most upstream shuffle removed."""
    if node is None:
        return None, None
    rest, found = _without_shuffles(node._input)
    if node._kind == "shuffle":
        return rest, found or node
    return (node if rest is node._input else _with_input(node, rest)), found


def _with_input(node, new_input):
    out = copy.copy(node)
    out._input = new_input
    if getattr(out, "_cache", None) is not None:
        out._cache = None
    return out


# -- the shard TensorFlow inserts --------------------------------------------------------------
class RequiredShard(_ShardDataset):
    """``shard(W, w)`` with ``require_non_empty``, as TF 2.21's ShardDataset runs it (checked in
    tests/tf_crosscheck): with fewer than W elements (files, under FILE), a worker whose index has
    a file raises at its first read, counting the files it went through (``w + 1``); a worker
    past the last file reads nothing, without an error."""
    _kind = "shard"

    def _iterate(self):
        it = self._input._iterate()
        head = list(itertools.islice(it, self._num_shards))
        if len(head) < self._num_shards:
            if self._index >= len(head):
                return
            from sim.engine.errors import InvalidArgumentError
            from sim.i18n import t
            raise InvalidArgumentError(None, None, (
                f"Could not apply FILE based sharding: the dataset only has {self._index + 1} "
                f"file(s), which is not enough for the required {self._num_shards} shards/workers. "
                "If you are using datasets with distribution strategy, consider setting the auto "
                "sharding policy to either DATA or OFF using the "
                "`experimental_distribute.auto_shard_policy` option of `tf.data.Options()`. Or, "
                "split your input files into a larger number of small files such that number of "
                "files is greater than number of shards/workers.\n"
                + t("datafiles.not_enough", seen=len(head), workers=self._num_shards)))
        if head:
            yield head[self._index]
        yield from itertools.islice(it, self._index, None, self._num_shards)


def fresh_copy(node):
    """The pipeline as another process would build it: every node copied, no pass counted yet
    (``who_reads`` runs all the workers' pipelines in one process)."""
    if node is None:
        return None
    out = copy.copy(node)
    out._input = fresh_copy(node._input)
    if hasattr(out, "_passes"):
        out._passes = 0
    if getattr(out, "_cache", None) is not None:
        out._cache = None
    if getattr(out, "_other", None) is not None:
        out._other = fresh_copy(node._other)
    if getattr(out, "_datasets", None) is not None:
        from sim.engine import nest
        out._datasets = nest.map_structure(fresh_copy, node._datasets)
    return out


def dataset_of_batches(make_iter, like, kind="rebatch"):
    """A Dataset node over ``make_iter()`` (for a caller's rebatch), keeping ``like``'s options."""
    return Dataset._from_generator_fn(make_iter, like.element_spec, input=like, kind=kind)
