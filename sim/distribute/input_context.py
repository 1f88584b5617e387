"""``tf.distribute.InputContext``, ``ValueContext``, ``InputOptions`` and ``InputReplicationMode``.

An InputContext tells a ``dataset_fn`` which input pipeline it builds and how many replicas
share the global batch, so it can shard and batch by the per-replica batch size (§3.2).
"""
from __future__ import annotations

import enum

from sim.distribute.errors import explain
from sim.i18n import t


class InputContext:
    """A class wrapping information needed by an input function."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    num_input_pipelines = property(lambda self: self._num_input_pipelines)
    input_pipeline_id = property(lambda self: self._input_pipeline_id)
    num_replicas_in_sync = property(lambda self: self._num_replicas_in_sync)

    def get_per_replica_batch_size(self, global_batch_size):
        """The global batch divided by the number of replicas; it must divide exactly."""
        n = self._num_replicas_in_sync
        if global_batch_size % n:
            lower = global_batch_size - global_batch_size % n
            # The word between the two sizes is the course language's ("或", "ou").
            suggest = t("distribute.input_context_either", a=lower, b=lower + n) if lower else f"{n}"
            raise ValueError(explain(
                f"The `global_batch_size` {global_batch_size!r} is not divisible by "
                f"`num_replicas_in_sync` {n!r} ", "input_context_divisible",
                g=global_batch_size, n=n, suggest=suggest))
        return global_batch_size // n

    def __str__(self):
        return "tf.distribute.InputContext(input pipeline id {}, total: {})".format(
            self.input_pipeline_id, self.num_input_pipelines)

    __repr__ = __str__


class ValueContext:
    """What ``experimental_distribute_values_from_function``'s ``value_fn`` is told."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self._replica_id_in_sync_group = replica_id_in_sync_group
        self._num_replicas_in_sync = num_replicas_in_sync

    replica_id_in_sync_group = property(lambda self: self._replica_id_in_sync_group)
    num_replicas_in_sync = property(lambda self: self._num_replicas_in_sync)

    def __str__(self):
        return "tf.distribute.ValueContext(replica id {}, total replicas in sync: {})".format(
            self.replica_id_in_sync_group, self.num_replicas_in_sync)


class InputReplicationMode(enum.Enum):
    """Replication mode for input function (``PER_WORKER`` or ``PER_REPLICA``)."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions:
    """Run options for ``experimental_distribute_dataset(s_from_function)``."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=InputReplicationMode.PER_WORKER,
                 experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size
