"""The simulated ps cluster behind a ClusterCoordinator: workers taking closures from a queue.

Machine: one CPU host per worker then one per ps task (``cpu-cluster``, 10 GbE), so worker
``i`` is host ``i`` and ps ``k`` is host ``num_workers + k``. Each worker is a SimPy process:

    take the next closure -> run its Python at once (reads: the ps values now; writes: kept
    in a WorkerView) -> copy the variables it read from their ps tasks -> compute (its FLOPs,
    bytes and ops by the roofline rule of sim.distribute.timing) -> send its updates to the ps
    tasks -> commit them.

The ps version counts committed updates of trainable variables. An update's staleness is the
number of updates committed between its read and its commit (0 = fresh). One Python process,
SimPy's event order: the same seed gives the same result every time.

Faults (sim.des failures, permanent): a worker that dies loses the closure it was running, which
goes back to the front of the queue (at least once; ``reexecutions`` counts them); a ps that
dies makes every closure touching it fail with ``tf.errors.UnavailableError``, raised at the
coordinator, and everything still queued is cancelled.
"""
from __future__ import annotations

import heapq
import math
import numpy as np
import simpy

from sim.distribute.ps import side_by_side
from sim.distribute.ps.closure import Closure, UpdateRecord, _InsideClosure  # noqa: F401
from sim.distribute.ps.remote_value import RemoteValueStatus, resolve
from sim.distribute.ps.variable import WorkerView


class SimulatedCluster:
    """Workers and ps tasks on a simulated machine, running scheduled closures."""

    def __init__(self, strategy, seed=0, stragglers=None, staleness_aware=False, machine=None):
        from sim.des import Simulator
        from sim.hardware.presets import cpu_cluster
        ext = strategy.extended
        self.strategy = strategy
        self.num_workers, self.num_ps = ext._num_workers, ext._num_ps
        from sim.distribute.ps import one_host
        self.one_host = one_host.wanted(machine, ext._cluster)   # every task on one host
        if self.one_host:
            self.machine = one_host.machine()
            cpu = self.machine.devices_of("CPU")[0]
            self.worker_devices, self.ps_devices = [cpu] * self.num_workers, [cpu] * self.num_ps
        else:
            self.machine = machine if machine is not None and not isinstance(machine, str) else \
                cpu_cluster(nodes=self.num_workers + self.num_ps)
            cpus = self.machine.devices_of("CPU")
            self.worker_devices = [d for d in cpus if d.host < self.num_workers]
            self.ps_devices = [d for d in cpus if d.host >= self.num_workers][:self.num_ps]
        self.sim = Simulator(self.machine, seed=seed, stragglers=self._by_device(stragglers))
        self.env = self.sim.env
        self._host_cpu = simpy.Resource(self.env, capacity=1) if self.one_host else None
        self._shared = side_by_side.SharedHost(self.env)
        self.staleness_aware = bool(staleness_aware)
        self.queue = simpy.PriorityStore(self.env)
        self.version = 0
        self.records: list[UpdateRecord] = []
        self.reexecutions = 0
        self.failures: list = []          # (time, "worker"|"ps", index)
        self.dead_workers: set = set()
        self.dead_ps: set = set()
        self.errors: list = []
        self.pending: set = set()
        self._seq = 0
        for i in range(self.num_workers):
            self.env.process(self._worker(i))

    def _by_device(self, stragglers):
        """``{worker index: factor or Slowdown}`` (or a Slowdown for all) -> by device name."""
        if stragglers is None or not isinstance(stragglers, dict):
            return stragglers
        out = {}
        for key, value in stragglers.items():
            out[self.worker_devices[key].name if isinstance(key, int) else key] = value
        return out

    # -- the coordinator's side ---------------------------------------------------------------
    @property
    def now(self):
        return self.env.now

    def put(self, closure, front=False):
        self._seq += 1
        self.queue.put((0 if front else 1, self._seq, closure))

    def run_until(self, done):
        """Advance the simulation until ``done()``; raise if nothing can make progress."""
        env = self.env
        while not done():
            if env.peek() == math.inf:
                from sim.distribute.ps.errors import explain
                from sim.engine.errors import UnavailableError
                raise UnavailableError(None, None, explain(
                    "No worker is available to run the scheduled functions: every worker "
                    "has failed.", "no_worker_left"))
            env.step()

    def step(self):
        if self.env.peek() != math.inf:
            self.env.step()

    def fail_worker(self, index, at):
        from sim.des import Failure
        self.sim.add_failure(Failure(at, host=self.worker_devices[index].host))
        self._on(at, lambda: (self.dead_workers.add(index),
                              self.failures.append((self.env.now, "worker", index))))

    def fail_ps(self, index, at):
        from sim.des import Failure
        self.sim.add_failure(Failure(at, host=self.ps_devices[index].host))
        self._on(at, lambda: (self.dead_ps.add(index),
                              self.failures.append((self.env.now, "ps", index))))

    def _on(self, at, action):
        self.env.timeout(max(0.0, at - self.env.now)).callbacks.append(lambda _e: action())

    def cancel_all(self):
        """Cancel every queued closure (their RemoteValues raise CancelledError)."""
        from sim.engine.errors import CancelledError
        for _, _, closure in list(self.queue.items):
            closure.cancelled = True
            closure.remote_value._set_error(CancelledError(
                None, None, "The corresponding function is cancelled. Please reschedule the "
                "function."))
            self.pending.discard(closure)
        self.queue.items.clear()

    # -- a worker -----------------------------------------------------------------------------
    def _worker(self, i):
        while True:
            if self.queue.items:        # free again: take the next closure at once, before
                _, _, closure = heapq.heappop(self.queue.items)   # other updates of this instant
            else:
                _, _, closure = yield self.queue.get()
            if closure.cancelled:
                continue
            if i in self.dead_workers:
                self.put(closure, front=True)
                return
            steps = side_by_side.steps_of(closure.fn) if self.one_host else None
            if self._host_cpu is None or steps is not None:
                alive = yield from self._run(i, closure, steps)
            else:                       # one host: other closures take its CPU one at a time
                with self._host_cpu.request() as turn:
                    yield turn
                    alive = yield from self._run(i, closure, None)
            if not alive:
                return

    def _run(self, i, closure, steps):
        """Run ``closure`` on worker ``i``: one read-compute-write unit, or one unit per step of
        ``steps`` (one host, a closure that says its steps: side_by_side.py); False if the
        worker died."""
        closure.runs += 1
        if steps is None:
            ok, outcome = yield from self._unit(i, closure, closure.fn)
            if not ok:
                return outcome
        else:
            count, one_step, finish = steps
            for k in range(count):
                if k:           # the other closures' writes of this instant land before this read
                    yield self.env.timeout(0)
                ok, outcome = yield from self._unit(i, closure, one_step, shared=True)
                if not ok:
                    return outcome
            finish()
        closure.remote_value._set(outcome)
        self.pending.discard(closure)
        return True

    def _unit(self, i, closure, fn, shared=False):
        """Python at once (reads: the ps values now), then reads, compute and writes in simulated
        time, then the commit. (True, fn's result), or (False, whether the worker lives on)."""
        from sim.des.failures import DeviceFailure
        from sim.distribute import timing
        from sim.engine.counting import counting
        from sim.engine.errors import UnavailableError
        env, dev = self.env, self.worker_devices[i]
        start, read_version = env.now, self.version
        view = WorkerView()
        marker = _InsideClosure()
        ext = self.strategy.extended
        timing._active.append(marker)
        ext._being_scheduled = True
        try:
            with self.strategy.scope(), counting() as c, view, \
                    np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                args = resolve(closure.args, i)
                kwargs = resolve(closure.kwargs, i)
                result = fn(*args, **kwargs)
        except Exception as e:           # an application error: not retried
            return False, self._fail(closure, e, "error", i, start, read_version, view)
        finally:
            ext._being_scheduled = False
            timing._active.remove(marker)
        ps, w = self.ps_devices, dev
        try:
            reads = [(ps[k].name, w.name, float(n)) for k, n in sorted(view.read_bytes.items())
                     if ps[k] is not w]
            if reads:
                yield self.sim.transfers(reads, label="read_variables")
            seconds = timing.compute_seconds(dev, c.flops, c.bytes, ops=c.ops)
            if shared:          # a step side by side with others on one host (side_by_side.py)
                yield from self._shared.compute(seconds)
            else:
                yield self.sim.compute(dev.name, seconds=seconds, label="closure")
            writes = [(w.name, ps[k].name, float(n)) for k, n in sorted(view.write_bytes().items())
                      if ps[k] is not w]
            if writes:
                yield self.sim.transfers(writes, label="update_variables")
        except DeviceFailure:
            if i in self.dead_workers or dev in self.sim._dead:
                self.dead_workers.add(i)
                self._record(closure, i, start, read_version, 0, "aborted", view)
                closure.remote_value._status = RemoteValueStatus.ABORTED
                self.reexecutions += 1
                self.put(closure, front=True)
                return False, False
            lost = sorted(k for k, d in enumerate(ps) if d in self.sim._dead)
            self.dead_ps.update(lost)
            from sim.distribute.ps.errors import explain
            error = UnavailableError(None, None, explain(
                f"Parameter server task {lost[0] if lost else '?'} is unavailable: the "
                f"connection to /job:ps/replica:0/task:{lost[0] if lost else '?'} was lost.",
                "ps_unavailable", task=lost[0] if lost else "?"))
            return False, self._fail(closure, error, "unavailable", i, start, read_version, view)
        staleness = self.version - read_version
        updates = any(v.trainable for v in view.written)
        with np.errstate(over="ignore", invalid="ignore"):
            view.commit(1.0 / (1 + staleness) if self.staleness_aware else 1.0)
        if updates:
            self.version += 1
            from sim.distribute.divergence import watch_update
            watch_update(self, view.written, self.version, result)
        self._record(closure, i, start, read_version, staleness,
                     "applied" if updates else "no_update", view)
        return True, result

    def _fail(self, closure, error, status, i, start, read_version, view):
        """A closure that cannot succeed: recorded, its RemoteValue given ``error``, the rest of
        the queue cancelled (TensorFlow's coordinator stops at the first error)."""
        self._record(closure, i, start, read_version, 0, status, view)
        closure.remote_value._set_error(error)
        self.pending.discard(closure)
        self.errors.append(error)
        self.cancel_all()
        return True

    def _record(self, closure, worker, start, read_version, staleness, status, view):
        self.records.append(UpdateRecord(
            closure.id, worker, start, self.env.now, read_version, staleness, status,
            float(sum(view.read_bytes.values())), float(sum(view.write_bytes().values())),
            tuple(sorted(set(view.read_bytes) | set(view.write_bytes())))))

    # -- what happened --------------------------------------------------------------------------
    def staleness(self, worker=None):
        """Staleness of every applied update (of one worker's, if given), in commit order."""
        return [r.staleness for r in self.records if r.status == "applied"
                and (worker is None or r.worker == worker)]
