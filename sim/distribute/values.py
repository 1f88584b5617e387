"""Distributed values: one component per replica (``PerReplica``) or equal components (``Mirrored``).

``strategy.run`` gives replica r component r of every distributed argument (``select_replica``)
and groups the replicas' results back (``regroup``), following TensorFlow's values.py and
distribute_utils.py: identical objects stay unwrapped, components of one distributed variable
become that variable again, anything else becomes a PerReplica.
"""
from __future__ import annotations

from sim.distribute.context import current_mode
from sim.distribute.operator_delegation import delegate_operators
from sim.engine import nest


def current_replica_id():
    """The local replica index of the running replica thread (0 in cross-replica context)."""
    ctx = current_mode().replica_context
    if ctx is None:
        return 0
    return ctx._local_replica_id


class DistributedValues:
    """Base class for values with one component per replica (``tf.distribute.DistributedValues``)."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def _get(self):
        """The component of the running replica (the primary one in cross-replica context)."""
        return self._values[current_replica_id()]

    def _get_on_device_or_primary(self):
        return self._get()

    @property
    def _primary(self):
        return self._values[0]

    def __tf_tracing_type__(self):
        """A tf.function traces once per kind of distributed value: its components' kinds."""
        from sim.engine.tracing_type import tracing_type
        return (type(self).__name__, tuple(tracing_type(v) for v in self._values))

    @property
    def _devices(self):
        return tuple(getattr(v, "device", None) for v in self._values)

    def __str__(self):
        if getattr(self._values[0], "_keras_path", None) is not None:
            return self.__repr__()
        body = ",\n".join("  %d: %s" % (i, v) for i, v in enumerate(self._values))
        return "%s:{\n%s\n}" % (type(self).__name__, body)

    def __repr__(self):
        if getattr(self._values[0], "_keras_path", None) is not None:   # a Keras 3 weight prints
            from sim.engine.variable import keras3_repr                # as Keras's Variable
            return keras3_repr(self)
        body = ",\n".join("  %d: %r" % (i, v) for i, v in enumerate(self._values))
        return "%s:{\n%s\n}" % (type(self).__name__, body)


class PerReplica(DistributedValues):
    """Values that may differ per replica, e.g. a replica's slice of the batch or its loss."""


class DistributedDelegate(DistributedValues):
    """A distributed value that behaves like its current component in ops (TensorFlow's delegate)."""

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._get(), name)

    def _as_tensor(self):
        from sim.engine.tensor import convert_to_tensor
        return convert_to_tensor(self._get())

    def numpy(self):
        return self._as_tensor().numpy()

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        a = np.asarray(self._as_tensor())
        return a if dtype is None else a.astype(dtype)

    def __float__(self):
        return float(self._as_tensor())


delegate_operators(DistributedDelegate, "_get", extra=("__getitem__",))


class Mirrored(DistributedDelegate):
    """Values equal on every replica, e.g. an all-reduced gradient (``Mirrored``)."""


def value_container(x):
    """The distributed variable a component belongs to, else ``x`` itself."""
    c = getattr(x, "_distributed_container", None)     # a weak reference
    c = None if c is None else c()
    return x if c is None else c


def select_replica(replica_id, structure):
    """Component ``replica_id`` of every DistributedValues in ``structure``; others unchanged."""
    tp = type(structure)
    if tp is tuple or tp is list:
        return tp([select_replica(replica_id, x) for x in structure])
    if tp in _LEAF_TYPES:
        return structure
    if tp is dict:
        return {k: select_replica(replica_id, v) for k, v in structure.items()}
    if isinstance(structure, DistributedValues):
        if getattr(structure, "_is_distributed_variable", False):
            return structure
        return structure._values[replica_id]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return tp(*[select_replica(replica_id, x) for x in structure])
    if isinstance(structure, (list, tuple, dict)):
        return nest.map_structure(lambda x: select_replica(replica_id, x), structure)
    _LEAF_TYPES.add(tp)
    return structure


# Types that select_replica returns unchanged (neither containers nor distributed values),
# learnt as they are met: one set lookup instead of a chain of isinstance checks per leaf.
_LEAF_TYPES = {type(None), bool, int, float, str}


def split_replicas(structure, n):
    """``[select_replica(r, structure) for r in range(n)]`` in one walk of ``structure``."""
    tp = type(structure)
    if tp is tuple or tp is list:
        if not structure:
            return [tp() for _ in range(n)]
        cols = [split_replicas(x, n) for x in structure]
        return [tp(row) for row in zip(*cols)]
    if tp in _LEAF_TYPES:
        return [structure] * n
    if tp is dict:
        if not structure:
            return [{} for _ in range(n)]
        keys = list(structure)
        cols = [split_replicas(structure[k], n) for k in keys]
        return [dict(zip(keys, row)) for row in zip(*cols)]
    if isinstance(structure, DistributedValues):
        if getattr(structure, "_is_distributed_variable", False):
            return [structure] * n
        values = structure._values
        return [values[r] for r in range(n)]
    if isinstance(structure, (list, tuple, dict)):
        return [select_replica(r, structure) for r in range(n)]
    _LEAF_TYPES.add(tp)
    return [structure] * n


def _is_variable(x):
    return getattr(x, "_is_distributed_variable", False)


def regroup(values, wrap_class=PerReplica, always_wrap=False):
    """Group a list of per-replica nests into one nest of distributed values (TF's regroup)."""
    v0 = values[0]
    tp = type(v0)
    if tp is list or tp is tuple or (isinstance(v0, (list, tuple)) and not hasattr(v0, "_fields")
                                     and not _is_variable(v0)):
        n0 = len(v0)
        for v in values:
            if len(v) != n0:
                raise ValueError("Replicas returned structures of different lengths: "
                                 f"{[len(v) for v in values]}")
        return tp(regroup(list(t), wrap_class, always_wrap) for t in zip(*values))
    if isinstance(v0, tuple) and hasattr(v0, "_fields"):
        return tp(*[regroup(list(t), wrap_class, always_wrap) for t in zip(*values)])
    if isinstance(v0, dict):
        return tp((k, regroup([v[k] for v in values], wrap_class, always_wrap)) for k in v0)
    same = True
    for v in values:
        if v is not v0:
            same = False
            break
    c0 = getattr(v0, "_distributed_container", None)     # a weak reference
    if c0 is not None:
        c0 = c0()
    if same:
        if getattr(v0, "_is_distributed_variable", False):
            return v0
        if not always_wrap and (c0 is None or c0 is v0):
            return v0
    if c0 is not None and c0 is not v0:
        for v in values:
            c = getattr(v, "_distributed_container", None)
            if (v if c is None else c()) is not c0:
                break
        else:
            return c0
    return wrap_class(values)
