"""``flat_map`` and ``interleave``: a function turns each element into a dataset; the results
are concatenated (flat_map) or drawn from ``cycle_length`` at a time, ``block_length`` elements
from each in turn (interleave, with TensorFlow's deterministic order)."""
from __future__ import annotations

from sim.data import structure
from sim.data.dataset import Dataset


def _dataset_of(fn, element, method):
    out = structure.call(fn, element)
    if not isinstance(out, Dataset):
        from sim.i18n import t
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                        f"{type(out).__name__!r}. "
                        + t("data_transforms.flat_map_dataset", method=method,
                            got=type(out).__name__))
    return out


class _FlatMapDataset(Dataset):
    _kind = "flat_map"

    def __init__(self, input, map_func):
        self._fn = map_func
        super().__init__(input, None)

    @property
    def element_spec(self):
        """The spec of the datasets ``map_func`` returns (seen on the first input element)."""
        if self._spec is None:
            first = next(iter(self._input._iterate()), None)
            if first is None:
                from sim.data.transforms.mapping import _zeros
                first = _zeros(self._input.element_spec, 1)
            self._spec = _dataset_of(self._fn, first, self._kind).element_spec
        return self._spec

    def _iterate(self):
        for element in self._input._iterate():
            yield from _dataset_of(self._fn, element, self._kind)._iterate()


class _InterleaveDataset(_FlatMapDataset):
    _kind = "interleave"

    def __init__(self, input, map_func, cycle_length, block_length=1):
        if cycle_length < 1 or block_length < 1:
            from sim.engine.errors import InvalidArgumentError
            from sim.i18n import t
            raise InvalidArgumentError(None, None, "cycle_length and block_length must be positive. "
                                       + t("data_transforms.cycle_length", cycle=cycle_length,
                                           block=block_length))
        self._cycle, self._block = int(cycle_length), int(block_length)
        super().__init__(input, map_func)

    def _iterate(self):
        """TensorFlow's InterleaveDataset loop: visit the slots in turn; an empty slot opens the
        next input element's dataset; an open one gives up to ``block_length`` elements; an
        exhausted one is closed and the turn passes on (its slot is refilled on the next visit)."""
        inputs = self._input._iterate()
        slots = [None] * self._cycle
        index, taken, open_count, end_of_input = 0, 0, 0, False
        while not end_of_input or open_count > 0:
            if slots[index] is not None:
                if taken < self._block:
                    try:
                        element = next(slots[index])
                    except StopIteration:
                        slots[index], open_count = None, open_count - 1
                    else:
                        taken += 1
                        yield element
                        continue
                index, taken = (index + 1) % self._cycle, 0
            elif not end_of_input:
                try:
                    element = next(inputs)
                except StopIteration:
                    end_of_input = True
                else:
                    slots[index] = iter(_dataset_of(self._fn, element, self._kind)._iterate())
                    open_count += 1
            else:
                index, taken = (index + 1) % self._cycle, 0


def default_cycle_length():
    """``cycle_length=None`` (AUTOTUNE): TensorFlow opens one dataset per schedulable CPU core.
    The simulated host is fixed so runs repeat on any machine: pass ``cycle_length`` to match
    a real run exactly."""
    return SIMULATED_HOST_CORES


SIMULATED_HOST_CORES = 8
