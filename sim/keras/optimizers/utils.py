"""Gradient aggregation as tf_keras/optimizers/utils.py does it (§4.5).

``all_reduce_sum_gradients`` reduces each gradient TO ITS VARIABLE (``batch_reduce_to(SUM,
[(g, v), ...])`` in a merge_call), not to the replicas: the variable's devices are the
destination. Under MirroredStrategy that is an all-reduce onto every mirror; under
CentralStorageStrategy the gradients only travel to the parameter device (no copy back to the
GPUs), where the update runs once. A plain ``ReplicaContext.all_reduce`` would send the sum
back to every replica, paying an extra copy per GPU that TensorFlow does not pay.
"""
from __future__ import annotations

from sim.keras import distribute_utils as du


def _all_reduce_sum_fn(distribution, grads_and_vars):
    return distribution.extended.batch_reduce_to(du.sum_op(), grads_and_vars)


def all_reduce_sum_gradients(grads_and_vars):
    """SUM each gradient across replicas onto its variable's devices (replica context)."""
    grads_and_vars = list(grads_and_vars)
    if not grads_and_vars:
        return []
    ctx = du.get_replica_context()
    return list(ctx.merge_call(_all_reduce_sum_fn, args=(grads_and_vars,)))
