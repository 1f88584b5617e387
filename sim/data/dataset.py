"""``tf.data.Dataset``: a chain of nodes, each one a Python generator over its input.

Each transformation returns a new Dataset node that remembers its input (``_input``), its
kind (``_kind``: "batch", "map"...) and its arguments, so the distribute layer can inspect
the pipeline as TensorFlow's input rewriting does:

- ``compute_batch_size()``: TensorFlow's ``compute_batch_size`` (the static batch dimension,
  else the batch size of the last ``.batch()`` reached walking back through transformations
  that keep batches whole, else -1);
- ``is_file_based()``: whether the source reads files (only file sources shard by FILE);
- ``options()``: the merged ``tf.data.Options`` (``experimental_distribute.auto_shard_policy``);
- ``Dataset._from_generator_fn(make_iter, element_spec, input=...)``: a node from any
  generator function, for rewrites (rebatch, auto-shard) done outside this package.

Iteration yields nests of engine Tensors, structures preserved.
"""
from __future__ import annotations

from sim.data import structure
from sim.data.options import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Options
from sim.engine import nest
from sim.engine.errors import EndOfDataset, OutOfRangeError


def _unsupported_method(name):
    """A ``tf.data.Dataset`` name outside the subset: NotImplementedError (also an
    AttributeError, so hasattr stays False), naming it and what to use instead."""
    if name.startswith("_"):
        return AttributeError(name)
    from sim.tf._lazy import unsupported
    return unsupported(f"tf.data.Dataset.{name}")


class _DatasetType(type):
    def __getattr__(cls, name):  # tf.data.Dataset.sample_from_datasets(...)
        raise _unsupported_method(name)


class Dataset(metaclass=_DatasetType):
    """A sequence of elements built from a source and transformations (``tf.data.Dataset``)."""

    def __getattr__(self, name):  # dataset.unique()
        raise _unsupported_method(name)

    _kind = "dataset"

    def __init__(self, input=None, element_spec=None):
        self._input = input
        self._spec = element_spec

    # -- the contract each node implements -------------------------------------------------
    def _iterate(self):
        """A generator of this node's elements (a fresh pass over the input each call)."""
        raise NotImplementedError

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _keeps_batches(self):
        """True if this node passes its input's batches through whole (for compute_batch_size)."""
        return False

    # -- inspection -------------------------------------------------------------------------
    @property
    def element_spec(self):
        return self._spec

    def cardinality(self):
        from sim.engine.tensor import constant
        from sim.engine import dtypes
        return constant(self._cardinality(), dtype=dtypes.int64)

    def __len__(self):
        n = self._cardinality()
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True

    def options(self):
        return self._input.options() if self._input is not None else Options()

    def is_file_based(self):
        return self._input.is_file_based() if self._input is not None else False

    def compute_batch_size(self):
        """The batch size TensorFlow's input rewriting sees; -1 when it cannot tell."""
        dims = [s.shape[0] if s.shape.rank else None for s in nest.flatten(self._spec)]
        if dims and all(d is not None for d in dims):
            return dims[0] if all(d == dims[0] for d in dims) else -1
        node = self
        while node is not None:
            if node._kind == "batch":
                return node._batch_size
            if not node._keeps_batches():
                return -1
            node = node._input
        return -1

    def __repr__(self):
        name = type(self).__name__
        if name == "_PassThrough":
            name = "_" + self._kind.capitalize() + "Dataset"
        return f"<{name} element_spec={self.element_spec}>"

    # -- iteration ---------------------------------------------------------------------------
    def __iter__(self):
        return Iterator(self)

    def as_numpy_iterator(self):
        return (structure.to_numpy(e) for e in self._iterate())

    def reduce(self, initial_state, reduce_func):
        state = structure.normalize(initial_state)
        for e in self:
            state = structure.normalize(reduce_func(state, e))
        return state

    @classmethod
    def _from_generator_fn(cls, make_iter, element_spec, input=None, kind="generator",
                           cardinality=UNKNOWN_CARDINALITY):
        """A node whose elements come from ``make_iter()`` (for pipeline rewrites)."""
        from sim.data.sources import _FnDataset
        return _FnDataset(make_iter, element_spec, input, kind, cardinality)

    # -- sources (sources.py) ----------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors, name=None):
        from sim.data.sources import from_tensors
        return from_tensors(tensors)

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        from sim.data.sources import from_tensor_slices
        return from_tensor_slices(tensors)

    @staticmethod
    def range(*args, **kwargs):
        from sim.data.sources import range_
        return range_(*args, **kwargs)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        from sim.data.sources import from_generator
        return from_generator(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*datasets, name=None):
        from sim.data.sources import zip_
        return zip_(*datasets)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        from sim.data.transforms.choosing import choose_from_datasets
        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        from sim.data.transforms.choosing import sample_from_datasets
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        from sim.data.files import list_files
        return list_files(file_pattern, shuffle, seed)

    # -- transformations (transforms/) --------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        from sim.data.transforms.batching import _BatchDataset
        return _BatchDataset(self, batch_size, drop_remainder)

    def unbatch(self, name=None):
        from sim.data.transforms.batching import _UnbatchDataset
        return _UnbatchDataset(self)

    def repeat(self, count=None, name=None):
        from sim.data.transforms.shuffling import _RepeatDataset
        return _RepeatDataset(self, count)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        from sim.data.transforms.shuffling import _ShuffleDataset
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        from sim.data.transforms.mapping import _MapDataset
        return _MapDataset(self, map_func)

    def flat_map(self, map_func, name=None):
        from sim.data.transforms.interleaving import _InterleaveDataset
        return _InterleaveDataset(self, map_func, 1, 1, kind="flat_map")

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        from sim.data.transforms.interleaving import _InterleaveDataset
        return _InterleaveDataset(self, map_func, cycle_length, block_length)

    def filter(self, predicate, name=None):
        from sim.data.transforms.mapping import _FilterDataset
        return _FilterDataset(self, predicate)

    def take(self, count, name=None):
        from sim.data.transforms.slicing import _TakeDataset
        return _TakeDataset(self, count)

    def skip(self, count, name=None):
        from sim.data.transforms.slicing import _SkipDataset
        return _SkipDataset(self, count)

    def shard(self, num_shards, index, name=None):
        from sim.data.transforms.slicing import _ShardDataset
        return _ShardDataset(self, num_shards, index)

    def prefetch(self, buffer_size, name=None):
        from sim.data.transforms.passthrough import _PassThrough
        return _PassThrough(self, "prefetch")

    def cache(self, filename="", name=None):
        from sim.data.transforms.passthrough import _PassThrough
        return _PassThrough(self, "cache")

    def with_options(self, options, name=None):
        from sim.data.transforms.passthrough import _PassThrough
        return _PassThrough(self, "options", options)

    def enumerate(self, start=0, name=None):
        from sim.data.transforms.combining import _EnumerateDataset
        return _EnumerateDataset(self, start)

    def concatenate(self, dataset, name=None):
        from sim.data.transforms.combining import _ConcatenateDataset
        return _ConcatenateDataset(self, dataset)

    def apply(self, transformation_func):
        return transformation_func(self)

    def take_while(self, predicate, name=None):
        def gen():
            for e in self._iterate():
                if not bool(structure.call(predicate, e)):
                    return
                yield e
        return Dataset._from_generator_fn(gen, self.element_spec, self, "take_while")

    # -- transformations the guide and tutorials use next (transforms/padding ... grouping) ---
    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        from sim.data.transforms.padding import _PaddedBatchDataset
        return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        from sim.data.transforms.windowing import _WindowDataset
        return _WindowDataset(self, size, shift, stride, drop_remainder)

    def scan(self, initial_state, scan_func, name=None):
        from sim.data.transforms.scanning import _ScanDataset
        return _ScanDataset(self, initial_state, scan_func)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        from sim.data.transforms.grouping import _GroupByWindowDataset
        return _GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        from sim.data.transforms.grouping import bucket_by_sequence_length
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                         bucket_batch_sizes, padded_shapes, padding_values,
                                         pad_to_bucket_boundary, no_padding, drop_remainder)


class Iterator:
    """``iter(dataset)``: ``next()`` raises StopIteration at the end, ``get_next()``
    OutOfRangeError, as TensorFlow's iterators do."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._gen = dataset._iterate()

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._gen)
        except StopIteration:
            raise EndOfDataset from None

    def get_next(self):
        try:
            return next(self._gen)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        try:
            return Optional(next(self._gen))
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
