"""Dataset transformations: batch, unbatch, repeat, shuffle, map, filter, take, skip, shard...

Each is a node over its input (``_input``) whose ``_iterate`` is a generator over the input's.
One module per family (``Dataset``'s methods import the node they build from there):

- ``batching.py``: ``batch`` (``_BatchDataset``, stacking rows) and ``unbatch``;
- ``shuffling.py``: ``shuffle`` (TensorFlow's buffer semantics) and ``repeat``;
- ``mapping.py``: ``map`` (element_spec found by tracing) and ``filter``;
- ``slicing.py``: ``take``, ``skip`` and ``shard``, positional slices of the input;
- ``passthrough.py``: ``prefetch``, ``cache``, ``with_options`` (same elements as the input);
- ``combining.py``: ``enumerate`` and ``concatenate``;
- ``interleaving.py``: ``flat_map`` and ``interleave`` (one dataset per element, merged);
- ``padding.py``: ``padded_batch`` (pad each component to the batch's longest or a given shape);
- ``windowing.py``: ``window`` (a dataset of window datasets) and ``DatasetSpec``;
- ``scanning.py``: ``scan`` (a running state);
- ``grouping.py``: ``group_by_window`` and ``bucket_by_sequence_length``;
- ``_arguments.py``: the positive-count check ``batch`` and ``shuffle`` share.
"""
from __future__ import annotations

from sim.data.transforms._arguments import _positive
from sim.data.transforms.batching import _BatchDataset, _stack, _UnbatchDataset
from sim.data.transforms.combining import _ConcatenateDataset, _EnumerateDataset
from sim.data.transforms.mapping import _FilterDataset, _MapDataset, _trace_spec, _zeros
from sim.data.transforms.passthrough import _PassThrough
from sim.data.transforms.shuffling import _END, _RepeatDataset, _ShuffleDataset
from sim.data.transforms.slicing import _count, _ShardDataset, _SkipDataset, _TakeDataset

__all__ = ["_BatchDataset", "_UnbatchDataset", "_RepeatDataset", "_ShuffleDataset", "_MapDataset",
           "_FilterDataset", "_TakeDataset", "_SkipDataset", "_ShardDataset", "_PassThrough",
           "_EnumerateDataset", "_ConcatenateDataset", "_END", "_count", "_positive", "_stack",
           "_trace_spec", "_zeros"]
