"""``Dataset.choose_from_datasets`` and ``Dataset.sample_from_datasets``: each element taken from
one of several datasets, chosen by a dataset of indices or drawn at random with given weights.

Both follow TensorFlow's directed interleave: a chosen dataset that has run out ends the result
(``stop_on_empty_dataset=True``) or is skipped. ``sample_from_datasets`` drops datasets whose
(Python) weight is not positive and returns the only one left unchanged, as TensorFlow does; the
order of its draws comes from sim's seeded NumPy stream (tf.random's global/op seed rule), not
TensorFlow's Philox kernel, so it has the same weights but not the same sequence.
"""
from __future__ import annotations

import numpy as np

from sim.data.dataset import Dataset
from sim.data.options import UNKNOWN_CARDINALITY
from sim.engine import dtypes, nest
from sim.engine.errors import InvalidArgumentError
from sim.engine.spec import TensorSpec
from sim.engine.shape import TensorShape


def _common_spec(datasets):
    """The element spec every dataset fits (dims that differ become None); TypeError if none."""
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    specs = [d.element_spec for d in datasets]
    flats = [nest.flatten(s) for s in specs]
    ok = all(len(f) == len(flats[0]) for f in flats)
    merged = []
    if ok:
        for parts in zip(*flats):
            first = parts[0]
            if any(p.dtype is not first.dtype or p.shape.rank != first.shape.rank for p in parts):
                ok = False
                break
            dims = first.shape.as_list() if first.shape.rank is not None else None
            if dims is not None:
                for p in parts[1:]:
                    dims = [a if a == b else None for a, b in zip(dims, p.shape.as_list())]
            merged.append(TensorSpec(TensorShape(dims), first.dtype))
    if not ok:
        listing = "\n".join(f"Dataset {i} element_spec={s}." for i, s in enumerate(specs))
        raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs.\n "
                        + listing)
    return nest.pack_sequence_as(specs[0], merged)


class _DirectedInterleave(Dataset):
    """Elements of ``datasets`` in the order ``choices()`` names them (an iterator of indices)."""
    _kind = "directed_interleave"

    def __init__(self, selector, datasets, stop_on_empty_dataset):
        self._selector = selector
        self._datasets = list(datasets)
        self._stop = bool(stop_on_empty_dataset)
        super().__init__(selector if isinstance(selector, Dataset) else None,
                         _common_spec(self._datasets))

    def _choices(self):
        raise NotImplementedError

    def _iterate(self):
        n = len(self._datasets)
        iterators = [None] * n
        exhausted = [False] * n
        for choice in self._choices(exhausted):
            if not 0 <= choice < n:
                raise InvalidArgumentError(f"Selector index out of range: {choice} >= {n}")
            if exhausted[choice]:
                if self._stop:
                    return
                continue
            if iterators[choice] is None:
                iterators[choice] = self._datasets[choice]._iterate()
            element = next(iterators[choice], _END)
            if element is _END:
                exhausted[choice] = True
                if self._stop:
                    return
                continue
            yield element

    def _cardinality(self):
        return UNKNOWN_CARDINALITY


_END = object()


class _ChooseDataset(_DirectedInterleave):
    def _choices(self, exhausted):
        for c in self._selector._iterate():
            yield int(c._v)


class _SampleDataset(_DirectedInterleave):
    def __init__(self, datasets, probabilities, seeds, stop_on_empty_dataset):
        self._p = probabilities
        self._seeds = seeds
        self._passes = 0
        super().__init__(None, datasets, stop_on_empty_dataset)

    def _choices(self, exhausted):
        rng = np.random.Generator(np.random.Philox(
            key=[self._seeds[0] & (2**64 - 1), (self._seeds[1] << 20) + self._passes]))
        self._passes += 1
        while not all(exhausted):  # skipping emptied datasets, until every one is done
            yield int(rng.choice(len(self._p), p=self._p))


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """``tf.data.Dataset.choose_from_datasets``: element ``i`` from ``datasets[choice_dataset[i]]``."""
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    spec = choice_dataset.element_spec
    if not (isinstance(spec, TensorSpec) and spec.dtype is dtypes.int64 and spec.shape.rank == 0):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                        f"`tf.int64` tensors but are {spec}.")
    return _ChooseDataset(choice_dataset, datasets, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """``tf.data.Dataset.sample_from_datasets``: each element from a dataset drawn with
    probability proportional to its weight (uniform without weights)."""
    from sim.engine.ops.random import get_seed
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if weights is None:
        weights = [1.0] * len(datasets)
    elif isinstance(weights, Dataset):
        raise NotImplementedError("sim.tf: sample_from_datasets with a dataset of weights is not "
                                  "simulated; pass a list of weights.")
    weights = [float(w) for w in np.asarray(weights, dtype=np.float64).reshape(-1)]
    if len(weights) != len(datasets):
        raise ValueError("Invalid `weights`. `weights` should have the same length as `datasets` "
                         f"but got `len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
    _common_spec(datasets)
    kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
    if not kept:
        return datasets[0].take(0)
    if len(kept) == 1:
        return kept[0][0]
    p = np.array([w for _, w in kept])
    return _SampleDataset([d for d, _ in kept], p / p.sum(), get_seed(seed), stop_on_empty_dataset)
