"""Dataset transformations: batch, unbatch, repeat, shuffle, map, filter, take, skip, shard...

Each is a node over its input (``_input``) whose ``_iterate`` is a generator over the input's.
"""
from __future__ import annotations

import itertools

import numpy as np

from sim.data import structure
from sim.data.dataset import Dataset
from sim.data.options import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from sim.engine import nest
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor


def _positive(value, key):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        from sim.i18n import t
        from sim.engine.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"{key.split('.')[-1]} must be greater than zero. "
                                   + t(key, value=value))
    return int(value)


class _BatchDataset(Dataset):
    _kind = "batch"

    def __init__(self, input, batch_size, drop_remainder=False):
        self._batch_size = _positive(int(batch_size) if isinstance(batch_size, Tensor) else batch_size,
                                     "engine.batch_size")
        self._drop_remainder = bool(drop_remainder)
        lead = self._batch_size if self._drop_remainder else None
        spec = nest.map_structure(lambda s: TensorSpec([lead] + s.shape.as_list(), s.dtype),
                                  input.element_spec)
        super().__init__(input, spec)

    def _iterate(self):
        n, st = self._batch_size, self._input.element_spec
        it = self._input._iterate()
        while True:
            rows = list(itertools.islice(it, n))
            if not rows or (self._drop_remainder and len(rows) < n):
                return
            yield _stack(st, rows)

    def _cardinality(self):
        c = self._input._cardinality()
        if c < 0:
            return c
        return c // self._batch_size if self._drop_remainder else -(-c // self._batch_size)


def _stack(st, rows):
    flats = [nest.flatten(r) for r in rows]
    cols = []
    for j in range(len(flats[0])):
        parts = [f[j]._v for f in flats]
        shapes = {p.shape for p in parts}
        if len(shapes) > 1:
            from sim.engine.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, "Cannot batch tensors with different shapes in "
                                       f"component {j}. First element had shape "
                                       f"{list(parts[0].shape)} and element {len(cols)} had shape "
                                       f"{list(shapes.pop())}. Use padded_batch or make shapes equal.")
        cols.append(Tensor(np.stack(parts), flats[0][j]._dt))
    return nest.pack_sequence_as(rows[0], cols)


class _UnbatchDataset(Dataset):
    _kind = "unbatch"

    def __init__(self, input):
        spec = nest.map_structure(lambda s: TensorSpec(s.shape[1:], s.dtype), input.element_spec)
        super().__init__(input, spec)

    def _iterate(self):
        for e in self._input._iterate():
            flat = nest.flatten(e)
            for i in range(flat[0]._v.shape[0]):
                yield nest.pack_sequence_as(e, [Tensor(np.array(t._v[i]), t._dt) for t in flat])


class _RepeatDataset(Dataset):
    _kind = "repeat"

    def __init__(self, input, count=None):
        self._count = -1 if count is None else int(count)
        super().__init__(input, input.element_spec)

    def _iterate(self):
        k = 0
        while self._count < 0 or k < self._count:
            empty = True
            for e in self._input._iterate():
                empty = False
                yield e
            if empty:
                return
            k += 1

    def _cardinality(self):
        c = self._input._cardinality()
        if self._count == 0 or c == 0:
            return 0
        if self._count < 0:
            return INFINITE_CARDINALITY if c != UNKNOWN_CARDINALITY else c
        return c * self._count if c >= 0 else c

    def _keeps_batches(self):
        return True


class _ShuffleDataset(Dataset):
    """Keep a buffer of ``buffer_size`` elements; emit a random one and refill its slot from
    the input (TensorFlow's buffer semantics). Seeds follow tf.random's global/op rule; with
    ``reshuffle_each_iteration`` each new pass over the data uses the next order."""
    _kind = "shuffle"

    def __init__(self, input, buffer_size, seed=None, reshuffle_each_iteration=True):
        from sim.engine.ops.random import get_seed
        self._buffer_size = _positive(int(buffer_size), "engine.shuffle_buffer")
        self._seeds = get_seed(seed)
        self._reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        self._passes = 0
        super().__init__(input, input.element_spec)

    def _iterate(self):
        k = self._passes if self._reshuffle else 0
        self._passes += 1
        rng = np.random.Generator(np.random.Philox(key=[self._seeds[0], (self._seeds[1] << 20) + k]))
        it = self._input._iterate()
        buf = list(itertools.islice(it, self._buffer_size))
        while buf:
            i = int(rng.integers(len(buf)))
            out = buf[i]
            nxt = next(it, _END)
            if nxt is _END:
                buf[i] = buf[-1]
                buf.pop()
            else:
                buf[i] = nxt
            yield out

    def _cardinality(self):
        return self._input._cardinality()

    def _keeps_batches(self):
        return True


_END = object()


class _MapDataset(Dataset):
    _kind = "map"

    def __init__(self, input, map_func):
        self._fn = map_func
        super().__init__(input, None)

    @property
    def element_spec(self):
        if self._spec is None:
            self._spec = _trace_spec(self)
        return self._spec

    def _iterate(self):
        fn = self._fn
        for e in self._input._iterate():
            yield structure.normalize(structure.call(fn, e))

    def _cardinality(self):
        return self._input._cardinality()

    def _keeps_batches(self):
        return True


def _trace_spec(ds):
    """The element_spec of a map, found as TensorFlow finds it, by tracing: call the function
    on zeros shaped like the input spec, once with unknown dims as 1 and once as 2; output
    dims that differ are unknown (None). Falls back to the first real element."""
    inspec = ds._input.element_spec
    try:
        outs = [structure.normalize(structure.call(ds._fn, _zeros(inspec, n))) for n in (1, 2)]
    except Exception:  # noqa: BLE001 - a function that cannot run on zeros: look at real data
        first = next(iter(ds._iterate()), None)
        return inspec if first is None else structure.spec_of(first)

    def merge(a, b):
        if a._v.ndim != b._v.ndim:
            return TensorSpec(None, a.dtype)
        dims = [x if x == y else None for x, y in zip(a._v.shape, b._v.shape)]
        return TensorSpec(dims, a.dtype)
    return nest.map_structure(merge, outs[0], outs[1])


def _zeros(spec, n):
    def make(s):
        shape = [n if d is None else d for d in (s.shape.as_list() if s.shape.rank is not None else [])]
        if s.dtype.name == "string":
            return Tensor(np.full(shape, b"", dtype=object))
        return Tensor(np.zeros(shape, s.dtype.as_numpy_dtype))
    return nest.map_structure(make, spec)


class _FilterDataset(Dataset):
    _kind = "filter"

    def __init__(self, input, predicate):
        self._pred = predicate
        super().__init__(input, input.element_spec)

    def _iterate(self):
        for e in self._input._iterate():
            keep = structure.call(self._pred, e)
            if bool(np.asarray(keep)):
                yield e

    def _keeps_batches(self):
        return True


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


class _PassThrough(Dataset):
    """prefetch / cache / with_options / apply-style nodes: same elements as the input."""

    def __init__(self, input, kind, options=None):
        self._kind, self._options = kind, options
        self._cache = None
        super().__init__(input, input.element_spec)

    def _iterate(self):
        if self._kind != "cache":
            return self._input._iterate()
        if self._cache is not None:
            return iter(self._cache)
        return self._fill_cache()

    def _fill_cache(self):
        items = []
        for e in self._input._iterate():
            items.append(e)
            yield e
        self._cache = items

    def _cardinality(self):
        return self._input._cardinality()

    def _keeps_batches(self):
        return True

    def options(self):
        base = self._input.options()
        return base.merge(self._options) if self._options is not None else base


class _EnumerateDataset(Dataset):
    _kind = "enumerate"

    def __init__(self, input, start=0):
        from sim.engine import dtypes
        self._start = int(start)
        super().__init__(input, (TensorSpec([], dtypes.int64), input.element_spec))

    def _iterate(self):
        for i, e in enumerate(self._input._iterate(), self._start):
            yield (Tensor(np.array(i, np.int64)), e)

    def _cardinality(self):
        return self._input._cardinality()


class _ConcatenateDataset(Dataset):
    _kind = "concatenate"

    def __init__(self, input, other):
        self._other = other
        super().__init__(input, input.element_spec)

    def _iterate(self):
        yield from self._input._iterate()
        yield from self._other._iterate()

    def _cardinality(self):
        a, b = self._input._cardinality(), self._other._cardinality()
        if a == INFINITE_CARDINALITY or b == INFINITE_CARDINALITY:
            return INFINITE_CARDINALITY
        return UNKNOWN_CARDINALITY if min(a, b) < 0 else a + b
