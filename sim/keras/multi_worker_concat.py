"""Predictions under MultiWorkerMirroredStrategy: every worker gets every worker's rows.

Keras's ``reduce_per_replica(..., "concat")`` in multi-worker mode (Keras 3 and tf-keras,
``_multi_worker_concat``) gathers each replica's rows from all workers (``strategy.gather``,
worker by worker), splits them back per replica by the gathered row counts (replicas' batches may
be uneven or empty), then orders them local replica by local replica: for local replica r, the r-th
replica of worker 0, of worker 1, ... So ``model.predict`` returns the same full predictions on
each worker.
"""
from __future__ import annotations

import sim.tf as tf
from sim.distribute.values import PerReplica


def multi_worker_concat(value, strategy):
    """``value`` (a PerReplica, or a tensor when a worker has one replica) of every replica of
    every worker, concatenated in Keras's order."""
    rows = strategy.gather(value, axis=0)
    local = strategy.experimental_local_results(value)
    counts = PerReplica([tf.expand_dims(tf.shape(v)[0], 0) for v in local])   # one per replica
    all_counts = [int(n) for n in strategy.gather(counts, axis=0).numpy()]
    pieces, start = [], 0
    for n in all_counts:
        pieces.append(rows[start:start + n])
        start += n
    per_worker = len(strategy.extended.worker_devices)
    ordered = []
    for replica in range(per_worker):
        ordered += pieces[replica::per_worker]
    return tf.concat(ordered, axis=0)
