"""``batch`` (stack ``batch_size`` rows into one element) and ``unbatch`` (split them again)."""
from __future__ import annotations

import itertools

import numpy as np

from sim.data.dataset import Dataset
from sim.data.transforms._arguments import _positive
from sim.engine import nest
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor


class _BatchDataset(Dataset):
    _kind = "batch"

    def __init__(self, input, batch_size, drop_remainder=False):
        self._batch_size = _positive(int(batch_size) if isinstance(batch_size, Tensor) else batch_size,
                                     "engine.batch_size")
        self._drop_remainder = bool(drop_remainder)
        lead = self._batch_size if self._drop_remainder else None
        spec = nest.map_structure(lambda s: TensorSpec(
            None if s.shape.rank is None else [lead] + s.shape.as_list(), s.dtype),
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
