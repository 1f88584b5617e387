"""``RemoteValue`` (a closure's future result) and ``PerWorkerValues`` (one value per worker).

A RemoteValue goes NOT_READY -> READY when its closure succeeds or fails for good, NOT_READY ->
ABORTED when its worker dies (the closure is re-queued) and ABORTED -> READY when a re-run
succeeds (remote_value.py in TensorFlow). ``fetch``/``get`` run the simulated cluster until the
value is ready; a cancelled closure raises ``tf.errors.CancelledError``.
"""
from __future__ import annotations

import enum


class RemoteValueStatus(enum.Enum):
    NOT_READY = "NOT_READY"
    ABORTED = "ABORTED"
    READY = "READY"


class RemoteValue:
    """The future result of a scheduled closure (``tf.distribute.experimental.coordinator.RemoteValue``)."""

    def __init__(self, cluster):
        self._cluster = cluster
        self._status = RemoteValueStatus.NOT_READY
        self._value = None
        self._error = None

    def _set(self, value):
        self._value, self._status = value, RemoteValueStatus.READY

    def _set_error(self, error):
        self._error, self._status = error, RemoteValueStatus.READY

    def _wait(self):
        self._cluster.run_until(lambda: self._status is RemoteValueStatus.READY)
        if self._error is not None:
            raise self._error

    def fetch(self):
        """Wait for the closure and return its result as NumPy values."""
        from sim.engine import nest
        self._wait()
        return nest.map_structure(lambda x: x.numpy() if hasattr(x, "numpy") else x, self._value)

    def get(self):
        """Wait for the closure and return its result as tensors."""
        self._wait()
        return self._value

    def __repr__(self):
        return f"<RemoteValue status={self._status.value}>"


class PerWorkerValues:
    """One value per worker (``tf.distribute.experimental.coordinator.PerWorkerValues``).

    Passed to ``schedule``, each closure receives the component of the worker that runs it.
    """

    def __init__(self, values):
        self._values = tuple(values)

    def __repr__(self):
        return f"PerWorkerValues({len(self._values)} workers)"


def resolve(structure, worker: int):
    """``structure`` with every PerWorkerValues replaced by its ``worker`` component."""
    if isinstance(structure, PerWorkerValues):
        return structure._values[worker]
    if isinstance(structure, RemoteValue):
        raise ValueError("RemoteValue arguments are not supported by ClusterCoordinator.schedule: "
                         "fetch the value first.")
    if type(structure) in (list, tuple):
        return type(structure)(resolve(x, worker) for x in structure)
    if type(structure) is dict:
        return {k: resolve(v, worker) for k, v in structure.items()}
    return structure
