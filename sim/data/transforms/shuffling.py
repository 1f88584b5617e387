"""``shuffle`` (a buffer of ``buffer_size`` elements, TensorFlow's semantics) and ``repeat``."""
from __future__ import annotations

import itertools

import numpy as np

from sim.data.dataset import Dataset
from sim.data.options import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from sim.data.transforms._arguments import _positive


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
