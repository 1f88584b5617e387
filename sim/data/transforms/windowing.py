"""``window``: a dataset of windows, each window itself a (small) dataset.

Window ``i`` holds the input elements at ``i*shift + k*stride`` for ``k < size``; windows go on
while their first element exists (the last ones shorter) unless ``drop_remainder``. A nested
element gives a nest of window datasets, one per component, as in TensorFlow.
"""
from __future__ import annotations

import collections

from sim.data.dataset import Dataset
from sim.data.options import INFINITE_CARDINALITY
from sim.engine import nest


class DatasetSpec:
    """``tf.data.DatasetSpec``: the type of an element that is itself a dataset."""

    def __init__(self, element_spec):
        self.element_spec = element_spec

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and self.element_spec == other.element_spec

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, TensorShape([]))"


class _ListDataset(Dataset):
    """A finite dataset over elements already in memory (a window, a group)."""
    _kind = "list"

    def __init__(self, elements, element_spec):
        self._elements = list(elements)
        super().__init__(None, element_spec)

    def _iterate(self):
        return iter(self._elements)

    def _cardinality(self):
        return len(self._elements)


class _WindowDataset(Dataset):
    _kind = "window"

    def __init__(self, input, size, shift=None, stride=1, drop_remainder=False):
        size, stride = int(size), int(stride)
        shift = size if shift is None else int(shift)
        if min(size, shift, stride) < 1:
            from sim.engine.errors import InvalidArgumentError
            from sim.i18n import t
            raise InvalidArgumentError(None, None, "Window size, shift and stride must be positive. "
                                       + t("data_transforms.window_size", size=size, shift=shift,
                                           stride=stride))
        self._size, self._shift, self._stride = size, shift, stride
        self._drop_remainder = bool(drop_remainder)
        super().__init__(input, nest.map_structure(DatasetSpec, input.element_spec))

    def _iterate(self):
        span = (self._size - 1) * self._stride + 1
        buffer = collections.deque()  # (index, element), first index = next window's start
        start, n = 0, 0
        for element in self._input._iterate():
            if n >= start:
                buffer.append((n, element))
            n += 1
            if n - start == span:
                yield self._window(buffer, start)
                start += self._shift
                while buffer and buffer[0][0] < start:
                    buffer.popleft()
        while not self._drop_remainder and start < n:
            yield self._window(buffer, start)
            start += self._shift
            while buffer and buffer[0][0] < start:
                buffer.popleft()

    def _window(self, buffer, start):
        rows = [e for i, e in buffer if (i - start) % self._stride == 0][:self._size]
        spec = self._input.element_spec
        columns = [[nest.flatten(r)[j] for r in rows] for j in range(len(nest.flatten(spec)))]
        windows = [_ListDataset(col, s) for col, s in zip(columns, nest.flatten(spec))]
        return nest.pack_sequence_as(spec, windows)

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0:
            return n if n != INFINITE_CARDINALITY else INFINITE_CARDINALITY
        if self._drop_remainder:
            span = (self._size - 1) * self._stride + 1
            return 0 if n < span else (n - span) // self._shift + 1
        return -(-n // self._shift)
