"""Gradients through ``ReplicaContext.all_reduce`` and ``all_gather`` (TF's custom gradients, §2.2).

Each replica's output is recorded on the engine tape (``sim.engine.tape.record``) with a
gradient function that is itself a collective, as in TensorFlow's distribute_lib.py:

* all_reduce(op): the gradient is ``all_reduce(op)`` of the upstream gradients (d(Σx)/dx_r
  sums every replica's upstream gradient; MEAN divides by N the same way);
* all_gather(axis): the gradient is the SUM all-reduce of the upstream gradient, sliced back to
  this replica's rows along ``axis``.

The backward collective is a merge_call, so every replica must compute its gradient inside
``strategy.run`` (they meet at it in the same order: each walks its tape in reverse). It is
timed like any collective, so backward communication shows on the step's timeline.
"""
from __future__ import annotations

import numpy as np

from sim.engine import tape as _tape
from sim.engine.higher_order import FirstOrderOnly
from sim.engine.tensor import Tensor

# Their backward collectives run on arrays: a second derivative through them raises, naming them.
_ALL_REDUCE = FirstOrderOnly("ReplicaContext.all_reduce")
_ALL_GATHER = FirstOrderOnly("ReplicaContext.all_gather")


def recording():
    """Is any GradientTape recording? (Nothing to do, at no cost, when none is.)"""
    return bool(_tape._recording)


def row_offsets(value, axis):
    """``[(begin, size), ...]`` per replica: where each replica's rows sit in the gather."""
    from sim.distribute import _ops
    from sim.distribute.values import DistributedValues
    parts = value._values if isinstance(value, DistributedValues) else (value,)
    out, begin = [], 0
    for p in parts:
        a = np.asarray(_ops.to_numpy(p))
        size = a.shape[axis] if a.ndim else 1
        out.append((begin, size))
        begin += size
    return out


def _source(x):
    """The tensor the gradient flows to: a variable is read (so the tape tracks it, as the
    read TensorFlow does when it converts the variable for the collective)."""
    return x._engine_variable()._as_tensor() if hasattr(x, "_engine_variable") else x


def _backward(ctx, reduce_op, g):
    """The collective of the backward pass, on this replica's upstream gradient ``g``."""
    from sim.distribute import context
    from sim.i18n import t
    if context.current_mode().replica_context is not ctx:
        raise RuntimeError(t("distribute.collective_grad_outside_run"))
    return np.asarray(ctx._all_reduce_flat(reduce_op, [Tensor(np.asarray(g))])[0]._v)


def record_all_reduce(ctx, reduce_op, inputs, outputs, options=None):
    for x, y in zip(inputs, outputs):
        x = _source(x)
        if type(y) is Tensor and y is not x:
            _tape.record(y, (x,), (lambda g: _backward(ctx, reduce_op, g),), 0, 0, _ALL_REDUCE)


def record_all_gather(ctx, inputs, outputs, offsets, axis):
    from sim.distribute.reduce_op import ReduceOp
    rid = ctx._local_replica_id
    for x, y, rows in zip(inputs, outputs, offsets):
        x = _source(x)
        if type(y) is not Tensor or y is x:
            continue
        begin, size = rows[rid] if len(rows) > 1 else rows[0]
        ax = axis % y._v.ndim if y._v.ndim else 0

        def grad(g, begin=begin, size=size, ax=ax):
            total = _backward(ctx, ReduceOp.SUM, g)
            index = [slice(None)] * total.ndim
            index[ax] = slice(begin, begin + size)
            return total[tuple(index)]
        _tape.record(y, (x,), (grad,), 0, 0, _ALL_GATHER)
