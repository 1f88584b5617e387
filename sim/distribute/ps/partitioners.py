"""``tf.distribute.experimental.partitioners``: how many shards a variable is split into.

A partitioner is called as ``partitioner(shape, dtype)`` and returns one count per axis; only
the partitioned axis (0 by default) may be above 1. The arithmetic is TensorFlow's
(sharded_variable.py, and partitioned_variables.py for the size-based ones), so the course
predicts the same shards as TensorFlow (tf_distribute_semantics.md §7.2, test vectors T1-T7):

- Fixed(n): ``min(n, shape[axis])``;
- MinSize(min_bytes, max_shards): ``max(1, min(shape[axis], max_shards, ceil(bytes / min_bytes)))``;
- MaxSize(max_bytes, max_shards): rows per shard ``max(1, floor(max_bytes / bytes_per_row))``,
  shards ``ceil(shape[axis] / rows_per_shard)``, capped at ``max_shards``.
"""
from __future__ import annotations

import math

from sim.distribute.ps.errors import explain


def _dims(shape):
    """The shape as a list of ints (None where unknown)."""
    dims = getattr(shape, "dims", None)
    if dims is None and hasattr(shape, "as_list"):
        dims = shape.as_list()
    dims = list(shape if dims is None else dims)
    return [None if d is None else int(getattr(d, "value", d)) for d in dims]


def _element_bytes(dtype, bytes_per_string):
    from sim.engine import dtypes
    dt = dtypes.as_dtype(dtype)
    if dt is dtypes.string:
        return bytes_per_string
    return dt.size


class Partitioner:
    """Base class: ``__call__(shape, dtype, axis=0)`` -> list of shard counts per axis."""

    def __call__(self, shape, dtype, axis=0):
        raise NotImplementedError


class FixedShardsPartitioner(Partitioner):
    """Split along ``axis`` into ``num_shards`` shards (fewer if the axis is shorter)."""

    def __init__(self, num_shards):
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape)
        partitions = [1] * len(dims)
        partitions[axis] = min(self._num_shards, dims[axis])
        return partitions


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least ``min_shard_bytes``, at most ``max_shards``."""

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        for name, value in (("min_shard_bytes", min_shard_bytes), ("max_shards", max_shards),
                            ("bytes_per_string", bytes_per_string)):
            if value < 1:
                raise ValueError(explain(f"Argument `{name}` must be positive. Received: {value}",
                                         "must_be_positive", name=name, value=value))
        self._min_shard_bytes = min_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape)
        if axis >= len(dims):
            raise ValueError(explain(
                f"Can not partition variable along axis {axis} when shape is only {tuple(dims)}",
                "bad_axis", axis=axis, shape=tuple(dims)))
        total_bytes = math.prod(dims) * _element_bytes(dtype, self._bytes_per_string)
        partitions = [1] * len(dims)
        partitions[axis] = max(1, min(dims[axis], self._max_shards,
                                      int(math.ceil(total_bytes / self._min_shard_bytes))))
        return partitions


class MaxSizePartitioner(Partitioner):
    """Shards of at most ``max_shard_bytes`` (whole rows, at least one row each)."""

    def __init__(self, max_shard_bytes, max_shards=None, bytes_per_string=16):
        if max_shard_bytes < 1:
            raise ValueError(explain(f"Argument `max_shard_bytes` must be positive. Received "
                                     f"{max_shard_bytes}", "must_be_positive",
                                     name="max_shard_bytes", value=max_shard_bytes))
        if max_shards and max_shards < 1:
            raise ValueError(explain(f"Argument `max_shards` must be positive. Received {max_shards}",
                                     "must_be_positive", name="max_shards", value=max_shards))
        if bytes_per_string < 1:
            raise ValueError(explain(f"Argument `bytes_per_string` must be positive. Received: "
                                     f"{bytes_per_string}", "must_be_positive",
                                     name="bytes_per_string", value=bytes_per_string))
        self._max_shard_bytes = max_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape)
        if any(d is None for d in dims):
            raise ValueError(explain(f"shape is not fully defined: {tuple(dims)}",
                                     "shape_not_defined", shape=tuple(dims)))
        element = _element_bytes(dtype, self._bytes_per_string)
        bytes_per_slice = 1.0 * (math.prod(dims) / dims[axis]) * element
        slices_per_shard = max(1, math.floor(self._max_shard_bytes / bytes_per_slice))
        shards = int(math.ceil(1.0 * dims[axis] / slices_per_shard))
        if self._max_shards:
            shards = min(self._max_shards, shards)
        partitions = [1] * len(dims)
        partitions[axis] = shards
        return partitions
