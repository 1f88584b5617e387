"""Running ``fn`` on every replica in lockstep threads, as TensorFlow's mirrored_run.py does.

One thread per replica. The coordinator (the caller's thread) lets the replicas run one at a
time, in replica order, until each finishes or reaches a ``merge_call``; a merge_call is a
barrier: when every replica has reached it, the merge function runs once in cross-replica
context with the replicas' arguments grouped, then each replica resumes with its own part of
the result. Because only one thread runs at a time, results are deterministic, and the FLOPs
counted between two hand-offs belong to the replica that ran (timing.StepTimer.charge_to).
Threads are kept per strategy and reused, and a replica that pauses hands the turn straight to
the next replica (the last one wakes the coordinator), so a round costs N+1 thread switches.
Each thread runs ``fn`` under its replica's device scope (the engine's device and tape stacks
are per thread), so its tensors report its device and its tapes see only its own ops.
For the length of a run the caller's thread and the replica threads share one core (see
sim/distribute/core_pinning.py): they take turns, so one core's warm caches serve them all.
"""
from __future__ import annotations

import os
import threading

from sim.distribute import context, core_pinning
from sim.distribute.errors import explain
from sim.distribute.replica_batons import make_batons
from sim.distribute.replica_context import ReplicaContext
from sim.distribute.values import regroup, split_replicas
from sim.engine import device as _device


class _Aborted(BaseException):
    """Raised inside a paused replica when another replica failed (TF's coordinator stop)."""


class ReplicaThread(threading.Thread):
    """A persistent replica thread: runs one job per ``strategy.run``, pausing at merge_calls."""

    def __init__(self, pool, index, baton):
        super().__init__(daemon=True, name=f"replica-{index}")
        self._pool = pool
        self._baton = baton
        self._wait = baton.wait          # blocks until this thread's turn
        self.signal = baton.signal       # gives this thread the turn
        self.index = index
        self.next = None       # the replica that runs after this one in a round (None: coordinator)
        self.job = None
        self._cpu = None       # the core this thread is pinned to (None: not pinned)
        self.reset()

    def reset(self):
        self.done = False
        self.error = None
        self.result = None
        self.abort = False
        self.merge_fn = None
        self.merge_args = self.merge_kwargs = None
        self.merge_result = None
        self.vars_created = 0

    def run(self):
        while True:
            self._wait()
            job = self.job
            if job is None:
                return
            fn, args, kwargs, ctx, device_name = job
            cpu = self._pool.cpu
            if cpu != self._cpu and cpu is not None:
                self._pin(cpu)
            if not self.abort:
                context.push_mode(context.replica_mode(ctx))
                _device.push(device_name)
                try:
                    self.result = fn(*args, **kwargs)
                except _Aborted:
                    pass
                except BaseException as e:  # re-raised by the coordinator
                    self.error = e
                finally:
                    _device.pop()
                    context.pop_mode()
            # Drop this job's references before pausing: a waiting thread's frame must not
            # keep the strategy (through ctx, fn or args) alive, or it is never collected and
            # its pool never closed.
            job = fn = args = kwargs = ctx = None
            self.done = True
            self.job = None
            if self._pool.closing:
                return
            self._handoff()

    def _pin(self, cpu):
        """Run on core ``cpu`` from now on (see sim/distribute/core_pinning.py); on failure stop trying."""
        try:
            os.sched_setaffinity(0, (cpu,))
            self._cpu = cpu
        except (OSError, ValueError):
            self._pool.pinning = False
            self._cpu = None

    def _handoff(self):
        """Give the turn to the next replica, or back to the coordinator."""
        pool, nxt = self._pool, self.next
        if nxt is None or self.error is not None or pool.aborting:
            pool.signal_back()
        else:
            pool.timer.charge_to(nxt.index)
            nxt.signal()

    def merge_call(self, merge_fn, args, kwargs):
        self.merge_fn, self.merge_args, self.merge_kwargs = merge_fn, args, kwargs
        self._handoff()
        self._wait()
        if self.abort:
            raise _Aborted()
        return self.merge_result

    def step(self):
        """Let this thread run until it pauses or finishes (called by the coordinator)."""
        self.signal()
        self._pool.wait_back()


class ThreadPool:
    """The replica threads of one strategy."""

    def __init__(self, n):
        batons = make_batons(n + 1)
        self._back = batons[n]
        self.wait_back = self._back.wait       # the coordinator waits for the turn to come back
        self.signal_back = self._back.signal
        self.busy = False
        self.aborting = False
        self.closing = False
        self.timer = None
        self.cpu = None               # the core the replicas run on this round (None: any)
        self.pinning = core_pinning.cpu_reader() is not None
        self.threads = [ReplicaThread(self, i, batons[i]) for i in range(n)]
        for a, b in zip(self.threads, self.threads[1:]):
            a.next = b
        for t in self.threads:
            t.start()

    def close(self):
        """Stop the threads (one paused inside a job unwinds without running on); release the
        batons of those that stopped (one that did not keeps its baton, and so does the pool, so
        a reused descriptor can never reach it)."""
        self.closing = True
        me = threading.current_thread()
        for t in self.threads:
            t.job = None
            t.abort = True           # a thread paused in a merge_call unwinds (_Aborted) and exits
            t.signal()
        stopped = 0
        for t in self.threads:
            if t is not me:
                t.join(timeout=1.0)
            if not t.is_alive():
                t._baton.close()
                stopped += 1
        if stopped == len(self.threads):
            self._back.close()


def _merge_error(finished):
    return RuntimeError(explain(
        "merge_call called while defining a new graph or a tf.function. This can often "
        "happen if the function `fn` passed to `strategy.run()` contains a nested "
        "`@tf.function`, and the nested `@tf.function` contains a synchronization point, "
        "such as aggregating gradients (e.g, optimizer.apply_gradients), or if the "
        "function `fn` uses a control flow statement which contains a synchronization "
        "point in the body. Such behaviors are not yet supported.",
        "merge_call_mismatch", done=finished.index(True)))


def _group_kwargs(threads):
    """The replicas' merge_call kwargs grouped (most merge_calls pass none)."""
    for t in threads:
        if t.merge_kwargs:
            return regroup([t.merge_kwargs for t in threads])
    return {}


def run_replicas(extended, fn, args, kwargs, timer):
    """Call ``fn`` on every replica of ``extended``; return the regrouped results."""
    strategy = extended._container_strategy()
    pool = extended._take_pool()
    threads = pool.threads
    devices = extended._devices
    n = len(threads)
    first = threads[0]
    saved_affinity = None
    try:
        extended._shared_variables = []
        pool.timer = timer
        if pool.pinning:
            saved_affinity = core_pinning.hold_core(pool)
        replica_args = split_replicas(args, n)
        replica_kwargs = split_replicas(kwargs, n)
        for r, t in enumerate(threads):
            t.reset()
            ctx = ReplicaContext(strategy, r)
            ctx._thread = t
            t.job = (fn, replica_args[r], replica_kwargs[r], ctx, devices[r])
        del replica_args, replica_kwargs
        while True:
            timer.charge_to(0)
            first.step()               # runs every replica in turn, up to its next pause
            timer.charge_to(None)
            for t in threads:
                if t.error is not None:
                    _abort(pool)
                    raise t.error
            ndone = 0
            for t in threads:
                if t.done:
                    ndone += 1
            if ndone == n:
                break
            if ndone:
                _abort(pool)
                raise _merge_error([t.done for t in threads])
            merge_fn = first.merge_fn
            margs = regroup([t.merge_args for t in threads])
            mkwargs = _group_kwargs(threads)
            extended._tag_devices(margs)
            context.push_mode(context.cross_replica_mode(strategy))
            try:
                result = merge_fn(strategy, *margs, **mkwargs)
            except BaseException:
                _abort(pool)
                raise
            finally:
                context.pop_mode()
                timer.charge_to(None)
            for t, part in zip(threads, split_replicas(result, n)):
                t.merge_result = part
        return regroup([t.result for t in threads])
    finally:
        for t in threads:
            t.job = None
            t.merge_fn = t.merge_result = t.merge_args = t.merge_kwargs = t.result = t.error = None
        pool.timer = None
        if saved_affinity is not None:
            core_pinning.release_core(pool, saved_affinity)
        extended._release_pool(pool)


def _abort(pool):
    """Unblock every replica that has not finished; they stop without running further."""
    pool.aborting = True
    try:
        for t in pool.threads:
            if not t.done:
                t.abort = True
                t.step()
    finally:
        pool.aborting = False
