"""``tf.distribute.ReduceOp``: how values from several replicas are combined.

Only SUM and MEAN exist, as in TensorFlow; strings are accepted upper-cased ("sum" == SUM).
"""
from __future__ import annotations

import enum


def aggregation_name(aggregation) -> str:
    """``"SUM"``, ``"MEAN"``, ``"NONE"``... for a ``tf.VariableAggregation`` or a string."""
    return getattr(aggregation, "name", str(aggregation)).upper()


class ReduceOp(enum.Enum):
    """Indicates how a set of values should be reduced (``tf.distribute.ReduceOp``)."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        """The ReduceOp of a ``tf.VariableAggregation`` (SUM or MEAN); others raise ValueError."""
        name = aggregation_name(aggregation)
        if name not in ("SUM", "MEAN"):
            raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to "
                             "`tf.distribute.ReduceOp` type")
        return ReduceOp[name]


def as_reduce_op(reduce_op):
    """Accept a ReduceOp or a case-insensitive string ("sum", "Mean"), as Strategy.reduce does."""
    if isinstance(reduce_op, str):
        try:
            return ReduceOp(reduce_op.upper())
        except ValueError:
            from sim.distribute.errors import explain
            raise ValueError(explain(f"{reduce_op.upper()!r} is not a valid ReduceOp",
                                     "misuse.reduce_op", op=reduce_op)) from None
    return reduce_op
