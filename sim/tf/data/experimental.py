"""``tf.data.experimental``: AutoShardPolicy, DistributeOptions, cardinality constants."""
from __future__ import annotations

from sim.data import (AUTOTUNE, INFINITE_CARDINALITY, SHARD_HINT,  # noqa: F401
                      UNKNOWN_CARDINALITY, AutoShardPolicy, DistributeOptions)
from sim.tf._lazy import module_getattr


def cardinality(dataset):
    return dataset.cardinality()


__getattr__ = module_getattr("sim.tf.data.experimental")
