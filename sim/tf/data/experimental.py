"""``tf.data.experimental``: AutoShardPolicy, DistributeOptions, cardinality constants."""
from __future__ import annotations

from sim.data import (AUTOTUNE, INFINITE_CARDINALITY, SHARD_HINT,  # noqa: F401
                      UNKNOWN_CARDINALITY, AutoShardPolicy, DistributeOptions)
from sim.tf._lazy import module_getattr


def cardinality(dataset):
    return dataset.cardinality()


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    from sim.data.transforms.choosing import choose_from_datasets as choose
    return choose(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    from sim.data.transforms.choosing import sample_from_datasets as sample
    return sample(datasets, weights, seed, stop_on_empty_dataset)


__getattr__ = module_getattr("sim.tf.data.experimental")
