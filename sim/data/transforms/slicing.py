"""``take``, ``skip`` and ``shard``: positional slices of the input (``itertools.islice``)."""
from __future__ import annotations

import itertools

from sim.data.dataset import Dataset
from sim.data.options import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY


def _count(count):
    """``take``/``skip``'s count as an int (-1: all), with a clear error for a non-number."""
    try:
        return int(count)
    except (TypeError, ValueError):
        from sim.i18n import t
        raise TypeError(f"Cannot convert {count!r} to EagerTensor of dtype int64. "
                        + t("engine.take_count", value=repr(count))) from None


class _TakeDataset(Dataset):
    _kind = "take"

    def __init__(self, input, count):
        self._count = _count(count)
        super().__init__(input, input.element_spec)

    def _iterate(self):
        it = self._input._iterate()
        return it if self._count < 0 else itertools.islice(it, self._count)

    def _cardinality(self):
        c = self._input._cardinality()
        if self._count < 0:
            return c
        if c == UNKNOWN_CARDINALITY:
            return c
        return self._count if c == INFINITE_CARDINALITY else min(c, self._count)

    def _keeps_batches(self):
        return True


class _SkipDataset(Dataset):
    _kind = "skip"

    def __init__(self, input, count):
        self._count = _count(count)
        super().__init__(input, input.element_spec)

    def _iterate(self):
        it = self._input._iterate()
        if self._count < 0:
            return iter(())
        return itertools.islice(it, self._count, None)

    def _cardinality(self):
        c = self._input._cardinality()
        if c < 0:
            return c
        return 0 if self._count < 0 else max(c - self._count, 0)

    def _keeps_batches(self):
        return True


class _ShardDataset(Dataset):
    """Keep elements ``index, index + num_shards, ...``."""
    _kind = "shard"

    def __init__(self, input, num_shards, index):
        num_shards, index = int(num_shards), int(index)
        if num_shards < 1 or not 0 <= index < num_shards:
            from sim.i18n import t
            from sim.engine.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, f"Index must be between 0 and "
                                       f"{num_shards - 1} (currently index = {index}). "
                                       + t("engine.shard_index", index=index, num=num_shards))
        self._num_shards, self._index = num_shards, index
        super().__init__(input, input.element_spec)

    def _iterate(self):
        return itertools.islice(self._input._iterate(), self._index, None, self._num_shards)

    def _cardinality(self):
        c = self._input._cardinality()
        if c < 0:
            return c
        return max(0, -(-(c - self._index) // self._num_shards))

    def _keeps_batches(self):
        return True
