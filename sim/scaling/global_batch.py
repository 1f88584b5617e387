"""The global batch: what one synchronous step averages over, from the per-replica batch.

TensorFlow's guide writes ``BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync``; the
same product, with a check that names the mistake when an argument is not a positive count.
"""
from __future__ import annotations

from sim.i18n import t


def _replicas(num_replicas_or_strategy) -> int:
    count = getattr(num_replicas_or_strategy, "num_replicas_in_sync", num_replicas_or_strategy)
    return _positive_int(count, "num_replicas")


def _positive_int(value, name: str) -> int:
    try:
        whole = not isinstance(value, bool) and float(value).is_integer()
    except (TypeError, ValueError):
        whole = False
    if not whole or int(value) < 1:
        raise ValueError(t("scaling.not_a_count", name=name, value=value))
    return int(value)


def global_batch_size(per_replica_batch: int, num_replicas_or_strategy) -> int:
    """``per_replica_batch`` times the number of replicas (an int or a strategy)."""
    return _positive_int(per_replica_batch, "per_replica_batch") * _replicas(num_replicas_or_strategy)


def per_replica_batch_size(global_batch: int, num_replicas_or_strategy) -> int:
    """The share of one replica when ``global_batch`` divides evenly (else a clear error)."""
    replicas = _replicas(num_replicas_or_strategy)
    batch = _positive_int(global_batch, "global_batch")
    if batch % replicas:
        raise ValueError(t("scaling.uneven_split", batch=batch, replicas=replicas))
    return batch // replicas
