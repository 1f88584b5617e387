"""``group_by_window`` and ``bucket_by_sequence_length``.

group_by_window: each element goes to the group of ``key_func(element)``; when a group holds
``window_size`` elements (or ``window_size_func(key)``), ``reduce_func(key, group_dataset)`` runs
and its elements are yielded. At the end of the input the unfinished groups are reduced in
increasing key order, as TensorFlow's kernel (an ordered map of groups) does.

bucket_by_sequence_length is TensorFlow's recipe on top: the key is the bucket of
``element_length_func(element)`` (bucket ``i`` holds lengths in ``[boundaries[i-1],
boundaries[i])``), the window is that bucket's batch size, and the reduction a padded_batch.
"""
from __future__ import annotations

import numpy as np

from sim.data import structure
from sim.data.dataset import Dataset
from sim.data.transforms.windowing import _ListDataset
from sim.engine.tensor import Tensor


def _dataset_of(fn, element, method):
    """``fn(element)``, which must be a Dataset (reduce_func's contract)."""
    out = structure.call(fn, element)
    if not isinstance(out, Dataset):
        raise TypeError(f"The `reduce_func` argument must return a `Dataset` object. Got "
                        f"{type(out).__name__!r}. "
                        + _t("flat_map_dataset", method=method, got=type(out).__name__))
    return out


def _t(key, **fields):
    from sim.i18n import t
    return t("data_transforms." + key, **fields)


class _GroupByWindowDataset(Dataset):
    _kind = "group_by_window"

    def __init__(self, input, key_func, reduce_func, window_size=None, window_size_func=None):
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument "
                             "must be specified. " + _t("window_size_args"))
        if window_size is not None:
            size = int(window_size)
            window_size_func = lambda key: size  # noqa: E731
        self._key, self._reduce, self._size = key_func, reduce_func, window_size_func
        super().__init__(input, None)

    @property
    def element_spec(self):
        if self._spec is None:
            group = _ListDataset([], self._input.element_spec)
            key = Tensor(np.array(0, np.int64))
            self._spec = _dataset_of(lambda: self._reduce(key, group), (), self._kind).element_spec
        return self._spec

    def _reduced(self, key, rows):
        group = _ListDataset(rows, self._input.element_spec)
        key_tensor = Tensor(np.array(key, np.int64))
        return _dataset_of(lambda: self._reduce(key_tensor, group), (), self._kind)._iterate()

    def _iterate(self):
        groups = {}
        for element in self._input._iterate():
            key = int(np.asarray(structure.call(self._key, element)))
            rows = groups.setdefault(key, [])
            rows.append(element)
            if len(rows) == int(np.asarray(self._size(Tensor(np.array(key, np.int64))))):
                del groups[key]
                yield from self._reduced(key, rows)
        for key in sorted(groups):
            yield from self._reduced(key, groups[key])


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """``Dataset.bucket_by_sequence_length`` as TensorFlow composes it from group_by_window."""
    boundaries = [int(b) for b in bucket_boundaries]
    if any(b >= c for b, c in zip(boundaries, boundaries[1:])):
        raise ValueError("bucket_boundaries must be sorted in increasing order. "
                         + _t("bucket_boundaries", got=list(bucket_boundaries)))
    sizes = [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 but "
                         f"len(bucket_batch_sizes)={len(sizes)} and len(bucket_boundaries)="
                         f"{len(boundaries)}. "
                         + _t("bucket_sizes", expected=len(boundaries) + 1, got=len(sizes)))
    if pad_to_bucket_boundary:
        from sim.engine.errors import unsupported
        raise unsupported("tf.data.Dataset.bucket_by_sequence_length(pad_to_bucket_boundary=True)")

    def bucket_of(*element):
        length = int(np.asarray(element_length_func(*element)))
        return sum(length >= b for b in boundaries)

    def batch(key, group):
        n = sizes[int(np.asarray(key))]
        if no_padding:
            return group.batch(n, drop_remainder=drop_remainder)
        return group.padded_batch(n, padded_shapes=padded_shapes, padding_values=padding_values,
                                  drop_remainder=drop_remainder)

    return _GroupByWindowDataset(dataset, bucket_of, batch,
                                 window_size_func=lambda key: sizes[int(np.asarray(key))])
