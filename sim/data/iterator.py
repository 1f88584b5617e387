"""A dataset's iterator and ``tf.experimental.Optional``: how the end of the data shows.

``next()`` raises StopIteration at the end, ``get_next()`` OutOfRangeError, and
``get_next_as_optional()`` an empty Optional, as TensorFlow's iterators do.
"""
from __future__ import annotations

from sim.engine.errors import EndOfDataset, OutOfRangeError


class Iterator:
    """``iter(dataset)``: ``next()`` raises StopIteration at the end, ``get_next()``
    OutOfRangeError, as TensorFlow's iterators do."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._gen = dataset._iterate()
        self._consumed = 0      # elements given so far: what a checkpoint records of it

    def _checkpoint_position(self):
        return self._consumed

    def _restore_position(self, consumed):
        """Back to where a checkpoint left it (TensorFlow saves the iterator's state): the same
        dataset from its start, ``consumed`` elements skipped."""
        self._gen = self._dataset._iterate()
        for _ in range(int(consumed)):
            next(self._gen)
        self._consumed = int(consumed)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def _next(self):
        value = next(self._gen)
        self._consumed += 1
        return value

    def __next__(self):
        try:
            return self._next()
        except StopIteration:
            raise EndOfDataset from None

    def get_next(self):
        try:
            return self._next()
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        try:
            return Optional(self._next())
        except StopIteration:
            return Optional(None, empty=True)


class Optional:
    """``tf.experimental.Optional``: a value that may be missing (end of data)."""

    def __init__(self, value, empty=False):
        self._value, self._empty = value, empty

    def has_value(self):
        from sim.engine.tensor import constant
        return constant(not self._empty)

    def get_value(self):
        if self._empty:
            raise OutOfRangeError(None, None, "The optional does not have a value")
        return self._value
