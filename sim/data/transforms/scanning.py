"""``scan``: a running state through the elements; ``scan_func(state, element)`` returns
``(new_state, output)`` and the dataset yields the outputs."""
from __future__ import annotations

from sim.data import structure
from sim.data.dataset import Dataset
from sim.engine import nest


class _ScanDataset(Dataset):
    _kind = "scan"

    def __init__(self, input, initial_state, scan_func):
        self._state0 = structure.normalize(initial_state)
        self._fn = scan_func
        super().__init__(input, None)

    @property
    def element_spec(self):
        if self._spec is None:
            from sim.data.transforms.mapping import _zeros
            element = _zeros(self._input.element_spec, 1)
            _, out = self._step(self._state0, element)
            self._spec = structure.spec_of(out)
        return self._spec

    def _step(self, state, element):
        new_state, out = self._fn(state, element)
        new_state = structure.normalize(new_state)
        dtypes = lambda s: [t.dtype for t in nest.flatten(s)]  # noqa: E731
        if (nest.is_nested(new_state) != nest.is_nested(self._state0)
                or dtypes(new_state) != dtypes(self._state0)):
            from sim.i18n import t
            expected = [d.name for d in dtypes(self._state0)]
            got = [d.name for d in dtypes(new_state)]
            raise TypeError(f"The element types for the new state must match the initial state. "
                            f"Expected {expected}; got {got}. "
                            + t("data_transforms.scan_state", expected=expected, got=got))
        return new_state, structure.normalize(out)

    def _iterate(self):
        state = self._state0
        for element in self._input._iterate():
            state, out = self._step(state, element)
            yield out

    def _cardinality(self):
        return self._input._cardinality()
