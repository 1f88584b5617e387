"""When a strategy's gradients are reduced, relative to the backward pass: each framework's own rule.

* ``after-backward``: one reduction of every gradient once the backward pass has produced them
  all. Keras ``Model.fit`` computes every gradient (``tape.gradient``) and only then calls the
  optimizer, whose TensorFlow backend reduces them in one batch (``keras-team/keras``
  ``keras/src/backend/tensorflow/optimizer.py``, ``TFOptimizer._all_reduce_sum_gradients``: one
  ``replica_context.all_reduce(SUM, grads)``). MirroredStrategy's ``NcclAllReduce(num_packs=1)``
  concatenates them into one pack, and MultiWorkerMirrored's ``CommunicationOptions`` has
  ``bytes_per_pack=0``, "all values are packed into one pack" (``tensorflow/tensorflow``
  ``tensorflow/python/distribute/cross_device_ops.py`` ``AllReduceCrossDeviceOps``,
  ``cross_device_utils.py`` ``group_by_size``; collectives.md §5.2-5.4). So one all-reduce of
  the whole model, after backward: nothing overlaps.
* ``per-pack``: packs of ``bucket_mb`` (gradients reversed, then grouped by size) launched as
  each pack's last gradient exists, one after another on one stream. That is what a graph
  executor does with per-pack collectives: MultiWorkerMirrored with ``bytes_per_pack`` set
  (``cross_device_ops.py`` ``CollectiveAllReduce``: gradients reversed so the last-computed
  layers go first, then packed, each pack's launch ordered after the previous one; collectives.md
  §5.4), tf_cnn_benchmarks'
  ``replicated`` (``tensorflow/benchmarks`` ``scripts/tf_cnn_benchmarks/variable_mgr.py``
  ``VariableMgrLocalReplicated.preprocess_device_grads``: one all-reduce per gradient,
  ``--gradient_repacking=0``) and ``parameter_server`` (``VariableMgrLocalFetchFromPS``: each
  gradient sent to and summed on the parameter device as soon as it exists), and TF2's
  ParameterServerStrategy (each variable's update runs on its ps task once its gradient exists).
  CentralStorageStrategy too, per tensor: its cross-device op is
  ``ReductionToOneDevice(reduce_to_device=CPU)`` (``parameter_server_strategy.py``), whose batch
  reduce is one independent reduce per tensor (``cross_device_ops.py``; only the collective path
  packs, ``group_by_size``), so each gradient's copy to the CPU and its sum start as soon as it
  exists; only the updates wait for the last (traced on TF 2.21 with Keras 3, lessons technical
  review E7).
* ``horovod-cycle``: Horovod's DistributedOptimizer adds one allreduce op per gradient
  (``horovod/horovod`` ``horovod/tensorflow/__init__.py`` ``_DistributedOptimizer.compute_gradients``),
  which enqueues the tensor when it exists; a background thread wakes every ``HOROVOD_CYCLE_TIME``
  (``horovod/common/operations.cc`` ``RunLoopOnce``: sleeps until the last cycle start plus the
  cycle time), agrees with every rank on which tensors are ready (``controller.cc``
  ``ComputeResponseList`` / ``CoordinateCacheAndState``), fuses them into its fusion buffer up to
  ``HOROVOD_FUSION_THRESHOLD`` and all-reduces each fused buffer (``sim.scaleout.horovod``).
  Defaults: 1 ms and 128 MiB since Horovod 0.21 (commit 3ffe479e, "Changed default cycle time
  from 5ms to 1ms and fusion threshold from 64MB to 128MB"); 5 ms and 64 MiB before.

``overlap=True`` asks for ``per-pack`` on any strategy (what a framework that overlaps would gain),
``overlap=False`` for ``after-backward``.
"""
from __future__ import annotations

from dataclasses import dataclass

AFTER_BACKWARD, PER_PACK, HOROVOD = "after-backward", "per-pack", "horovod-cycle"
WHEN = (AFTER_BACKWARD, PER_PACK, HOROVOD)
HOROVOD_CYCLE_MS, HOROVOD_FUSION_MB = 1.0, 128.0          # operations.cc, Horovod >= 0.21
HOROVOD_2018 = {"cycle_ms": 5.0, "bucket_mb": 64.0, "negotiation": "gather"}   # Horovod 0.9-0.16
NEGOTIATIONS = ("cache", "gather")

_DEFAULT_WHEN = {"ring": AFTER_BACKWARD, "nccl": AFTER_BACKWARD, "hierarchical": AFTER_BACKWARD,
                 "nccl1": AFTER_BACKWARD,
                 "central-storage": PER_PACK, "parameter-server": PER_PACK,
                 "horovod": HOROVOD}


@dataclass(frozen=True)
class Reduction:
    """``when`` (one of ``WHEN``); ``bucket_mb`` (None: one pack of every gradient);
    ``cycle_ms`` and ``negotiation`` (Horovod's cycle and how its ranks agree, ``sim.scaleout.horovod``)."""

    when: str
    bucket_mb: float | None
    cycle_ms: float = 0.0
    negotiation: str = "cache"

    @property
    def overlaps(self) -> bool:
        return self.when != AFTER_BACKWARD

    def bucket_bytes(self, model) -> float:
        """The fusion threshold in bytes: the whole model when there is one pack."""
        return model.gradient_bytes if self.bucket_mb is None else self.bucket_mb * 2**20


def resolve(strategy: str, bucket_mb: float | None = None, overlap: bool | None = None,
            cycle_ms: float | None = None, when: str | None = None,
            negotiation: str | None = None) -> Reduction:
    """The strategy's own rule, with whatever the caller set explicitly.

    ``bucket_mb`` given on a TensorFlow all-reduce strategy is ``bytes_per_pack``: its packs go
    as they are ready (``per-pack``). Parameter servers and CentralStorageStrategy
    default to one gradient at a time (``bucket_mb=0``); Horovod to its fusion threshold."""
    if when is None:
        when = _DEFAULT_WHEN[strategy]
        if overlap is not None:
            when = PER_PACK if overlap else AFTER_BACKWARD
        elif when == AFTER_BACKWARD and bucket_mb is not None and strategy != "central-storage":
            when = PER_PACK
    if when not in WHEN:
        from sim.i18n import join_list, t
        raise ValueError(t("scale.bad_when", value=when, known=join_list(WHEN)))
    if bucket_mb is None:
        if strategy == "horovod":
            bucket_mb = HOROVOD_FUSION_MB
        elif strategy in ("parameter-server", "central-storage"):
            bucket_mb = 0.0
    cycle = (HOROVOD_CYCLE_MS if cycle_ms is None else float(cycle_ms)) if when == HOROVOD else 0.0
    negotiation = negotiation or "cache"
    if negotiation not in NEGOTIATIONS:
        from sim.i18n import join_list, t
        raise ValueError(t("scale.bad_when", value=negotiation, known=join_list(NEGOTIATIONS)))
    return Reduction(when, bucket_mb, cycle, negotiation)
