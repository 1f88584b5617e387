"""``enumerate`` (each element with its index) and ``concatenate`` (one dataset, then another)."""
from __future__ import annotations

import numpy as np

from sim.data.dataset import Dataset
from sim.data.options import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor


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
