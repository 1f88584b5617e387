"""Turn fit/evaluate/predict inputs into per-step batches (tf-keras data_adapter).

In-memory arrays become a tf.data.Dataset batched by the GLOBAL batch size with auto-shard
policy DATA (as Keras does), shuffled per epoch with a seeded permutation; a Dataset is used
as given (already batched globally); a DatasetCreator goes through
``distribute_datasets_from_function``. The strategy then splits each batch across replicas.
"""
from __future__ import annotations

import itertools
import logging
import math
import warnings

import numpy as np

import sim.tf as tf

from sim.keras import _errors, backend
from sim.keras.version import keras_major


class DatasetCreator:
    """``tf.keras.utils.experimental.DatasetCreator(dataset_fn, input_options=None)``."""

    def __init__(self, dataset_fn, input_options=None):
        if not callable(dataset_fn):
            raise TypeError("`dataset_fn` for `DatasetCreator` must be a `callable`. "
                            f"Received: {dataset_fn}")
        self.dataset_fn = dataset_fn
        self.input_options = input_options

    def __call__(self, *args, **kwargs):
        ds = self.dataset_fn(*args, **kwargs)
        if not _is_dataset(ds):
            raise TypeError("The `callable` provided to `DatasetCreator` must return a Dataset. "
                            f"It returns {ds}")
        return ds


_CREATOR_TEXT = ("When using a `tf.keras.utils.experimental.DatasetCreator`, `steps_per_epoch`, "
                 "`validation_steps`, `steps`, or `pss_evaluation_shards` argument must be provided "
                 "in `Model.fit`, `Model.evaluate`, or `Model.predict`.")


def _tfdata():
    try:
        data = tf.data
        return data if hasattr(data, "Dataset") else None
    except (AttributeError, ImportError, NotImplementedError):
        return None


def _is_dataset(x) -> bool:
    data = _tfdata()
    return data is not None and isinstance(x, data.Dataset)


def _is_distributed_dataset(x) -> bool:
    d = getattr(tf, "distribute", None)
    cls = getattr(d, "DistributedDataset", None) if d is not None else None
    return cls is not None and isinstance(x, cls)


def _length(x) -> int:
    if isinstance(x, dict):
        return _length(next(iter(x.values())))
    if isinstance(x, (list, tuple)):
        return _length(x[0])
    return int(np.shape(x)[0]) if not hasattr(x, "shape") else int(x.shape[0])


def _as_numpy(x):
    if x is None:
        return None
    if isinstance(x, dict):
        return {k: _as_numpy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)) and x and not np.isscalar(x[0]) and hasattr(x[0], "shape"):
        return type(x)(_as_numpy(v) for v in x)
    if hasattr(x, "numpy"):
        return x.numpy()
    return np.asarray(x)


def _take(x, idx):
    if x is None:
        return None
    if isinstance(x, dict):
        return {k: _take(v, idx) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_take(v, idx) for v in x)
    return x[idx]


def _cardinality(ds):
    try:
        c = ds.cardinality()
        c = int(backend.get_value(c))
    except Exception:  # noqa: BLE001 - datasets without a known size
        return None
    return c if c >= 0 else None


def unpack_x_y_sample_weight(data):
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found: {data}")


def train_validation_split(arrays, validation_split):
    n = _length(arrays[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))
    if split_at == 0 or split_at == n:
        raise ValueError(
            f"Training data contains {n} samples, which is not sufficient to split it into a "
            f"validation and training set as specified by `validation_split={validation_split}`. "
            "Either provide more data, or a different value for the `validation_split` argument.")
    train = tuple(_take(a, slice(0, split_at)) for a in arrays)
    val = tuple(_take(a, slice(split_at, n)) for a in arrays)
    return train, val


def checked_batch_size(batch_size):
    """``batch_size`` (None: 32) as Keras checks it: an int (a bool counts, as in Python;
    TypeError otherwise, as Keras's slicing raises for 2.5), positive (tf-keras's ValueError
    for 0 and -1)."""
    if batch_size is None:
        return 32
    if not isinstance(batch_size, (int, np.integer)):
        finite = isinstance(batch_size, (float, np.floating)) and math.isfinite(batch_size)
        raise TypeError(_errors.msg("batch_size_not_int", f"Expected int32 for `batch_size`, got "
                                    f"{batch_size!r} of type '{type(batch_size).__name__}' instead.",
                                    value=repr(batch_size),
                                    example=max(1, int(batch_size)) if finite else 32))
    if batch_size < 1:
        raise ValueError(_errors.msg("batch_size_not_positive", "Expected batch_size to be "
                                     f"positive. Received is {int(batch_size)}.", value=int(batch_size)))
    return int(batch_size)


class DataHandler:
    """Epochs and steps over one input, yielding per-step (distributed) batches."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None,
                 initial_epoch=0, epochs=1, shuffle=False, model=None, for_predict=False):
        self._strategy = model.distribute_strategy
        self._epochs = epochs
        self._initial_epoch = initial_epoch
        self._initial_step = 0
        self._shuffle = shuffle
        self._arrays = None
        self._dist = None
        self._iterator = None
        self._user_steps = steps_per_epoch
        self._peeked_epoch = None
        self._seed = backend._seed_state["seed"] or 0
        if isinstance(x, DatasetCreator):
            if steps_per_epoch is None:
                raise ValueError(_errors.msg("dataset_creator_steps", _CREATOR_TEXT))
            self._dist = self._strategy.distribute_datasets_from_function(x)
            self.inferred_steps = steps_per_epoch
            self._recreate = False
        elif _is_dataset(x) or _is_distributed_dataset(x):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input.")
            self._dist = x if _is_distributed_dataset(x) else self._strategy.experimental_distribute_dataset(x)
            card = _cardinality(x) if _is_dataset(x) else None
            self.inferred_steps = steps_per_epoch if steps_per_epoch is not None else card
            self._recreate = steps_per_epoch is None or (card is not None and card == steps_per_epoch)
        else:
            if x is None:
                raise ValueError(_errors.msg("no_data"))
            x, y, sample_weight = _as_numpy(x), _as_numpy(y), _as_numpy(sample_weight)
            n = _length(x)
            for name, arr in (("y", y), ("sample_weight", sample_weight)):
                if arr is not None and _length(arr) != n:
                    raise ValueError(_errors.msg(
                        "length_mismatch", "Data cardinality is ambiguous:\n"
                        f"  x sizes: {n}\n  {name} sizes: {_length(arr)}\n"
                        "Make sure all arrays contain the same number of samples.",
                        n=n, name=name, m=_length(arr)))
            # no batch_size but steps: Keras 3's ArrayDataAdapter and tf-keras's
            # TensorLikeDataAdapter batch ceil(samples / steps), else 32
            self._batch_size = int(math.ceil(n / steps_per_epoch)) if (
                not batch_size and steps_per_epoch and n) else checked_batch_size(batch_size)
            extra = () if for_predict else tuple(a for a in (y, sample_weight) if a is not None)
            self._arrays = (x,) + extra
            self._n = n
            steps = int(math.ceil(n / self._batch_size))
            self.inferred_steps = steps if steps_per_epoch is None else steps_per_epoch
            self._recreate = True

    def _array_dataset(self, epoch):
        arrays = self._arrays
        if self._shuffle:
            perm = np.random.default_rng([self._seed, epoch]).permutation(self._n)
            arrays = tuple(_take(a, perm) for a in arrays)
        element = arrays[0] if len(arrays) == 1 else arrays
        data = _tfdata()
        if data is None:
            if self._strategy.num_replicas_in_sync > 1:
                raise NotImplementedError("sim.tf: in-memory data under a multi-replica strategy "
                                          "needs tf.data (sim.data).")
            bs = self._batch_size
            return iter([_map_tensor(_take(element, slice(i, i + bs)))
                         for i in range(0, self._n, bs)])
        ds = data.Dataset.from_tensor_slices(element).batch(self._batch_size)
        try:
            options = data.Options()
            options.experimental_distribute.auto_shard_policy = data.experimental.AutoShardPolicy.DATA
            ds = ds.with_options(options)
        except (AttributeError, NotImplementedError):
            pass
        return iter(self._strategy.experimental_distribute_dataset(ds))

    def peek_first(self):
        """The first batch of the first epoch, left in place to be trained on (Keras 3's fit and
        evaluate look at it before the first step), or None when there is none."""
        it = self.iterator_for_epoch(self._initial_epoch)
        try:
            first = next(it)
        except StopIteration:
            return None
        self._iterator, self._peeked_epoch = itertools.chain([first], it), self._initial_epoch
        return first

    def iterator_for_epoch(self, epoch):
        if self._peeked_epoch == epoch:
            self._peeked_epoch = None
            return self._iterator
        if self._arrays is not None and self._user_steps is not None and keras_major() == 2:
            # tf-keras, steps_per_epoch given: one stream of every epoch's pass over the arrays,
            # read on across epochs (TensorLikeDataAdapter: indices_dataset.repeat(epochs))
            if self._iterator is None:
                self._iterator = itertools.chain.from_iterable(
                    self._array_dataset(e) for e in range(self._initial_epoch, self._epochs))
        elif self._arrays is not None:
            self._iterator = self._array_dataset(epoch)
        elif self._iterator is None or self._recreate:
            self._iterator = iter(self._dist)
        return self._iterator

    def enumerate_epochs(self):
        for epoch in range(self._initial_epoch, self._epochs):
            yield epoch, self.iterator_for_epoch(epoch)

    def steps(self, initial_step=0):
        step = initial_step
        while self.inferred_steps is None or step < self.inferred_steps:
            yield step
            step += 1

    def ran_out_of_data(self, steps_seen):
        if self.inferred_steps is None:
            self.inferred_steps = steps_seen
            return
        if keras_major() == 2 and self._arrays is not None and self._user_steps is not None:
            logging.getLogger("tensorflow").warning(   # tf-keras's DataHandler text
                "Your input ran out of data; interrupting training. Make sure that your dataset or "
                "generator can generate at least `steps_per_epoch * epochs` batches (in this case, "
                "%d batches). You may need to use the repeat() function when building your dataset.",
                (self._epochs - self._initial_epoch) * self.inferred_steps)
            return
        warnings.warn(
            "Your input ran out of data; interrupting training. Make sure that your dataset or "
            "generator can generate at least `steps_per_epoch * epochs` batches. You may need to "
            "use the `.repeat()` function when building your dataset.", stacklevel=3)


def _map_tensor(x):
    if isinstance(x, dict):
        return {k: _map_tensor(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return tuple(_map_tensor(v) for v in x)
    return tf.convert_to_tensor(x)
