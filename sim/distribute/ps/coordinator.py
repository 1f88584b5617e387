"""``tf.distribute.coordinator.ClusterCoordinator``: schedule closures on simulated workers.

``schedule(fn)`` queues a ``tf.function`` and returns a RemoteValue at once; workers of the
simulated cluster (worker_pool.py) take closures from the queue in simulated time. The blocking
calls (``join``, ``fetch``, ``RemoteValue.fetch``) run the simulation until what they wait for
has happened; ``done()`` lets one simulated event happen, like a moment of real time passing.
Errors follow TensorFlow (§7.3): an application error or a lost ps is raised by the next
``schedule``/``join``/``done`` and cancels the queued closures.

Extras of the simulator (keyword-only, not TensorFlow's): ``seed``, ``stragglers`` (``{worker
index: factor or sim.des.Slowdown}``), ``staleness_aware`` (updates scaled by 1/(1+staleness)),
and ``fail_worker``/``fail_ps`` to take a task down at a simulated time.
"""
from __future__ import annotations

from sim.distribute.ps.worker_pool import Closure, SimulatedCluster
from sim.distribute.ps.errors import explain
from sim.distribute.ps.remote_value import PerWorkerValues, RemoteValue


class ClusterCoordinator:
    """An object to schedule and coordinate remote function execution (one per strategy)."""

    def __new__(cls, strategy, **simulation):
        if not getattr(strategy, "_is_parameter_server_strategy_v2", False):
            raise ValueError(explain(
                "Only `tf.distribute.experimental.ParameterServerStrategy` is supported to work "
                "with `tf.distribute.experimental.coordinator.ClusterCoordinator` currently.",
                "coordinator_needs_pss"))
        if strategy._cluster_coordinator is None:
            strategy._cluster_coordinator = super().__new__(cls)
        return strategy._cluster_coordinator

    def __init__(self, strategy, *, seed=0, stragglers=None, staleness_aware=False, machine=None):
        if getattr(self, "_has_initialized", False):
            return
        self._strategy = strategy
        self._cluster = SimulatedCluster(strategy, seed=seed, stragglers=stragglers,
                                         staleness_aware=staleness_aware, machine=machine)
        self._next_id = 0
        self._synced_at = 0.0
        self._has_initialized = True

    @property
    def strategy(self):
        return self._strategy

    @property
    def cluster(self):
        """The simulated cluster: ``records``, ``staleness()``, ``reexecutions``, ``now``."""
        return self._cluster

    # -- scheduling ---------------------------------------------------------------------------
    def schedule(self, fn, args=None, kwargs=None):
        """Queue ``fn(*args, **kwargs)`` for any available worker; returns a RemoteValue."""
        from sim.engine.function import BoundFunction, Function
        self._raise_error()
        if not isinstance(fn, (Function, BoundFunction)):     # a tf.function, or one's method
            raise TypeError(explain(
                "`tf.distribute.experimental.coordinator.ClusterCoordinator.schedule` only "
                "accepts a `tf.function` or a concrete function.", "schedule_needs_function"))
        remote = RemoteValue(self._cluster)
        closure = Closure(self._next_id, fn, tuple(args or ()), dict(kwargs or {}), remote)
        self._next_id += 1
        self._cluster.pending.add(closure)
        self._cluster.put(closure)
        return remote

    def join(self):
        """Block until every scheduled function has finished; raise a collected error if any."""
        cluster = self._cluster
        try:
            cluster.run_until(lambda: not cluster.pending or cluster.errors)
        finally:
            self._sync_clock()
        self._raise_error()

    def done(self):
        """True when every scheduled function has finished (one simulated event passes first)."""
        if self._cluster.pending:
            self._cluster.step()
            self._sync_clock()
        self._raise_error()
        return not self._cluster.pending

    def fetch(self, val):
        """Fetch every RemoteValue in the structure ``val``; other values are returned as is."""
        from sim.engine import nest
        if isinstance(val, PerWorkerValues):
            return tuple(self.fetch(v) for v in val._values)
        result = nest.map_structure(lambda x: x.fetch() if isinstance(x, RemoteValue) else x, val)
        self._sync_clock()
        return result

    def _raise_error(self):
        errors = self._cluster.errors
        if errors:
            error = errors[0]
            errors.clear()
            raise error

    def _sync_clock(self):
        """Move sim.runtime's clock by the simulated time the cluster ran since the last sync."""
        from sim.runtime import clock
        now = self._cluster.now
        if now > self._synced_at:
            clock().advance(now - self._synced_at, "ps_training", "cluster")
            self._synced_at = now

    # -- per-worker resources -----------------------------------------------------------------
    def create_per_worker_dataset(self, dataset_fn):
        """One dataset per worker (``dataset_fn()`` is called once per worker, or a dataset is
        shared); ``iter()`` of the result gives one iterator per worker."""
        return PerWorkerDataset(self, dataset_fn)

    # -- faults (simulator extras) -------------------------------------------------------------
    def fail_worker(self, index, at=None):
        """Worker ``index`` goes down at simulated time ``at`` (default: now)."""
        self._cluster.fail_worker(index, self._cluster.now if at is None else at)

    def fail_ps(self, index, at=None):
        """Parameter server ``index`` goes down at simulated time ``at`` (default: now)."""
        self._cluster.fail_ps(index, self._cluster.now if at is None else at)


class PerWorkerDataset:
    """The datasets made by ``create_per_worker_dataset``, one per worker."""

    def __init__(self, coordinator, dataset_fn):
        workers = coordinator._cluster.num_workers
        if callable(dataset_fn) and not hasattr(dataset_fn, "_iterate"):
            self._datasets = [dataset_fn() for _ in range(workers)]
        else:
            self._datasets = [dataset_fn] * workers

    def __iter__(self):
        return PerWorkerDatasetIterator([iter(ds) for ds in self._datasets])

    @property
    def element_spec(self):
        return self._datasets[0].element_spec


class PerWorkerDatasetIterator(PerWorkerValues):
    """One iterator per worker; pass it to ``schedule`` and call ``next`` inside the function."""

    def __next__(self):
        return self.get_next()

    def get_next(self, name=None):
        raise NotImplementedError(explain("Iterating over an `AsyncDistributedIterator` is not "
                                          "supported right now.", "next_on_per_worker"))
