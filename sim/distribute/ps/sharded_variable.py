"""``tf.distribute.experimental.ShardedVariable``: one logical variable stored as row shards.

TensorFlow splits a partitioned variable with its "div" rule: ``k`` shards of ``rows // k``
rows, the first ``rows % k`` shards one row longer (10 rows in 4 shards -> 3, 3, 2, 2). Each
shard is an ordinary variable named ``{name}/part_{i}`` on its own parameter server.

A ShardedVariable acts as one variable: reading it concatenates the shards (so gradients flow
back to each shard), ``assign*`` split the value by rows, ``tf.nn.embedding_lookup`` reads
only the shards its ids fall in, and a checkpoint saves and restores the shards one by one
(the number of shards must not change between save and restore, as in TensorFlow).
"""
from __future__ import annotations

import numpy as np

from sim.distribute.operator_delegation import delegate_operators
from sim.distribute.ps.errors import explain
from sim.distribute.variable_surface import VariableSurface


def div_row_sizes(rows: int, num_shards: int) -> list[int]:
    """Rows per shard under TensorFlow's "div" partitioning (first ``rows % k`` get one more)."""
    k = min(int(num_shards), int(rows))
    base, extra = divmod(int(rows), k)
    return [base + (1 if i < extra else 0) for i in range(k)]


def row_offsets(sizes) -> list[int]:
    """Cumulative offsets ``[0, s0, s0+s1, ..., rows]``."""
    out = [0]
    for s in sizes:
        out.append(out[-1] + int(s))
    return out


class ShardedVariable(VariableSurface):
    """A container of shard variables that reads, writes and differentiates as one variable."""

    _is_sharded_variable = True

    def __init__(self, variables, name="ShardedVariable"):
        from sim.engine.variable import Variable
        if (not isinstance(variables, list) or not variables
                or any(not isinstance(v, Variable) for v in variables)):
            raise TypeError(explain("Argument `variables` should be a non-empty list of "
                                    f"`variables.Variable`s. Received {variables}",
                                    "sharded_not_variables"))
        first = variables[0]
        if any(v.dtype != first.dtype for v in variables):
            raise ValueError(explain("All elements in argument `variables` must have the same "
                                     f"dtype. Received dtypes: {[v.dtype for v in variables]}",
                                     "sharded_dtypes"))
        if len({tuple(v.shape.as_list()[1:]) for v in variables}) > 1:
            raise ValueError(explain("All elements in `variables` must have the same shapes "
                                     "except for the first axis. Received shapes: "
                                     f"{[v.shape for v in variables]}", "sharded_shapes"))
        self._variables = list(variables)
        self._name = name
        self._sizes = [int(v.shape[0]) for v in variables]
        self._offsets = row_offsets(self._sizes)

    # -- what it is --------------------------------------------------------------------------
    @property
    def variables(self):
        """The shard variables, in row order (give these to ``tape.gradient``)."""
        return list(self._variables)

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._variables[0].dtype

    @property
    def shape(self):
        from sim.engine.shape import TensorShape
        rest = self._variables[0].shape.as_list()[1:]
        return TensorShape([self._offsets[-1]] + rest)

    @property
    def trainable(self):
        return self._variables[0].trainable

    @property
    def ndim(self):
        return self._variables[0].ndim

    @property
    def device(self):
        return self._variables[0].device

    def __iter__(self):
        return iter(self._variables)

    def __repr__(self):
        return (f"<tf.distribute.experimental.ShardedVariable '{self._name}' shape={self.shape} "
                f"dtype={self.dtype.name} shards={len(self._variables)}>")

    # -- reading -----------------------------------------------------------------------------
    def _as_tensor(self):
        """All shards concatenated (TensorFlow's conversion; each shard read is recorded)."""
        from sim.engine.ops.array import concat
        if len(self._variables) == 1:
            return self._variables[0]._as_tensor()
        return concat([v._as_tensor() for v in self._variables], axis=0)

    def numpy(self):
        return np.concatenate([np.asarray(v.numpy()) for v in self._variables], axis=0)

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def __getitem__(self, spec):
        return self._as_tensor()[spec]

    def embedding_lookup(self, ids):
        """Rows ``ids`` read shard by shard: only the shards the ids fall in are read."""
        from sim.engine.ops.array import concat, reshape
        from sim.engine.ops.indexing import gather
        from sim.engine.tensor import convert_to_tensor
        ids_t = convert_to_tensor(ids)
        flat = np.asarray(ids_t._v).reshape(-1).astype(np.int64)
        if flat.size and (flat.min() < 0 or flat.max() >= self._offsets[-1]):
            from sim.engine.errors import InvalidArgumentError
            bad = int(flat[(flat < 0) | (flat >= self._offsets[-1])][0])
            raise InvalidArgumentError(None, None, f"indices = {bad} is not in "
                                       f"[0, {self._offsets[-1]})")
        unique, inverse = np.unique(flat, return_inverse=True)
        shard = np.searchsorted(self._offsets[1:], unique, side="right")
        pieces = [gather(var, unique[shard == i] - self._offsets[i], axis=0)
                  for i, var in enumerate(self._variables) if np.any(shard == i)]
        rest = self.shape.as_list()[1:]
        if not pieces:
            return reshape(gather(self._variables[0], flat, axis=0), list(ids_t.shape) + rest)
        rows = pieces[0] if len(pieces) == 1 else concat(pieces, axis=0)   # the distinct rows
        return reshape(gather(rows, inverse.reshape(-1), axis=0), list(ids_t.shape) + rest)

    # -- writing -----------------------------------------------------------------------------
    def _split(self, value):
        from sim.engine.tensor import convert_to_tensor
        a = np.asarray(convert_to_tensor(value)._v)
        if a.ndim == 0 or a.shape[0] != self._offsets[-1]:
            a = np.broadcast_to(a, self.shape.as_list())
        return [a[self._offsets[i]:self._offsets[i + 1]] for i in range(len(self._variables))]

    def _write(self, op, value):
        for var, part in zip(self._variables, self._split(value)):
            getattr(var, op)(part)
        return self


delegate_operators(ShardedVariable, "_as_tensor")
