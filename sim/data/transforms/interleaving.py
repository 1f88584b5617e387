"""``flat_map`` and ``interleave``: one dataset per input element, their elements merged.

``interleave`` follows TensorFlow's deterministic order: a cycle of ``cycle_length`` open
datasets, ``block_length`` elements from each in turn; a finished one is replaced by the
dataset of the next input element in the same slot. ``flat_map`` is the cycle of one.
``reads_files()`` tells the auto-shard rewrite whether the function builds a file reader from
its argument (TensorFlow looks for a reader op fed by ``args_0`` in the function).
"""
from __future__ import annotations

from sim.data import structure
from sim.data.dataset import Dataset

# cycle_length=None means AUTOTUNE; TensorFlow then uses the host's CPU core count. The
# simulator fixes it so notebooks print the same order on every machine.
AUTOTUNE_CYCLE_LENGTH = 8


class _InterleaveDataset(Dataset):
    _kind = "interleave"

    def __init__(self, input, map_func, cycle_length=None, block_length=None, kind="interleave"):
        self._fn = map_func
        self._kind = kind
        cycle = AUTOTUNE_CYCLE_LENGTH if cycle_length in (None, -1) else int(cycle_length)
        block = 1 if block_length in (None, -1) else int(block_length)
        if cycle < 1 or block < 1:
            from sim.i18n import t
            from sim.engine.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, "cycle_length and block_length must be "
                                       "positive. " + t("datafiles.interleave_lengths",
                                                        cycle=cycle_length, block=block_length))
        self._cycle, self._block = cycle, block
        self._probe = None
        super().__init__(input, None)

    def _dataset_for(self, element):
        ds = structure.call(self._fn, element)
        if not isinstance(ds, Dataset):
            from sim.i18n import t
            raise TypeError("The `map_func` argument must return a `Dataset` object. Got "
                            f"{type(ds).__name__}. " + t("datafiles.map_func_dataset",
                                                        kind=type(ds).__name__))
        return ds

    def _sample(self):
        """The dataset the function builds for a stand-in first element (no file is read)."""
        if self._probe is None:
            from sim.data.transforms.mapping import _zeros
            self._probe = self._dataset_for(_zeros(self._input.element_spec, 1))
        return self._probe

    @property
    def element_spec(self):
        if self._spec is None:
            self._spec = self._sample().element_spec
        return self._spec

    def is_file_based(self):
        return self.reads_files() or super().is_file_based()

    def reads_files(self):
        from sim.data.files import _ReaderDataset
        try:
            return isinstance(self._sample(), _ReaderDataset)
        except Exception:
            return False

    def _iterate(self):
        return interleave_iterators(self._input._iterate(),
                                    lambda e: self._dataset_for(e)._iterate(), self._cycle, self._block)


def interleave_iterators(source, open_one, cycle, block):
    """TensorFlow's interleave order over ``open_one(element)`` for each element of ``source``."""
    slots = [None] * cycle
    index, taken, open_count, end_of_input = 0, 0, 0, False
    while not end_of_input or open_count > 0:
        if slots[index] is not None:
            element = next(slots[index], _END)
            if element is not _END:
                taken += 1
                if taken == block:
                    index, taken = (index + 1) % cycle, 0
                yield element
                continue
            slots[index] = None
            open_count -= 1
            index, taken = (index + 1) % cycle, 0
        elif not end_of_input:
            element = next(source, _END)
            if element is _END:
                end_of_input = True
            else:
                slots[index] = open_one(element)
                open_count += 1
        else:
            index, taken = (index + 1) % cycle, 0


_END = object()
