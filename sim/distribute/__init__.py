"""Distribution strategies on simulated devices: TensorFlow's ``tf.distribute``, module by module.

context (which strategy/replica is current), strategy (the shared API), default and one_device
(one replica), mirrored (replicas in lockstep threads, replica_run), central_storage, tpu;
values and variables (per-replica and mirrored values), cross_device_ops (all-reduce through
sim.collectives), input (splitting batches between replicas), loss_scaling, timing.
"""
from sim.distribute.context import (get_replica_context, get_strategy, has_strategy,
                                    in_cross_replica_context)
from sim.distribute.reduce_op import ReduceOp

__all__ = ["ReduceOp", "get_replica_context", "get_strategy", "has_strategy",
           "in_cross_replica_context"]


def __getattr__(name):
    # tf.nn's loss scaling lives here (sim.tf.nn re-exports it); imported lazily.
    if name in ("compute_average_loss", "scale_regularization_loss"):
        from sim.distribute import loss_scaling
        return getattr(loss_scaling, name)
    raise AttributeError(f"module 'sim.distribute' has no attribute {name!r}")
