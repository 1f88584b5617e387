"""``prefetch``, ``cache`` and ``with_options``: nodes that yield the input's elements unchanged."""
from __future__ import annotations

from sim.data.dataset import Dataset


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
