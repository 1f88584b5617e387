"""``map`` (a function per element; element_spec found by tracing) and ``filter``."""
from __future__ import annotations

import numpy as np

from sim.data import structure
from sim.data.dataset import Dataset
from sim.engine import nest
from sim.engine.spec import TensorSpec
from sim.engine.tensor import Tensor


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
    dims that differ are unknown (None). The second call fills numbers with ones, so a shape
    computed from the values (``tf.fill([x], x)``) is unknown too, as in TensorFlow's graph.
    Falls back to the first real element."""
    inspec = ds._input.element_spec
    try:
        outs = [structure.normalize(structure.call(ds._fn, _zeros(inspec, n, fill=n - 1)))
                for n in (1, 2)]
    except Exception:  # noqa: BLE001 - a function that cannot run on zeros: look at real data
        first = next(iter(ds._iterate()), None)
        return inspec if first is None else structure.spec_of(first)

    def merge(a, b):
        if a._v.ndim != b._v.ndim:
            return TensorSpec(None, a.dtype)
        dims = [x if x == y else None for x, y in zip(a._v.shape, b._v.shape)]
        return TensorSpec(dims, a.dtype)
    return nest.map_structure(merge, outs[0], outs[1])


def _zeros(spec, n, fill=0):
    from sim.data.transforms.windowing import DatasetSpec, _ListDataset

    def make(s):
        if isinstance(s, DatasetSpec):  # a window: an empty dataset of its element_spec
            return _ListDataset([], s.element_spec)
        shape = [n if d is None else d for d in (s.shape.as_list() if s.shape.rank is not None else [])]
        if s.dtype.name == "string":
            return Tensor(np.full(shape, b"", dtype=object))
        return Tensor(np.full(shape, fill, s.dtype.as_numpy_dtype))
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
