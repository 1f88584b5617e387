"""Asynchronous, staleness-aware, synchronous and backup-worker training on one SimPy clock.

The same simulated cluster runs every regime (scaling_and_staleness.md §1, E4-E6):

- **async** (parameter servers): each of N workers reads the parameters, computes for a random
  time, then its gradient is applied at once; it reads again immediately. An update's
  staleness is the number of updates applied between its read and its apply (0 = fresh).
- **stale-synchronous parallel** (SSP, Ho et al. 2013): the same, but a worker whose clock (the
  updates it has applied) is more than ``ssp`` ahead of the slowest worker's waits before it reads
  again, so no gradient is applied with a clock gap above ``ssp`` (``Run.clock_gap``).
- **staleness-aware**: the same, with the learning rate divided by ``1 + staleness`` (rule
  ``"1+tau"``, the course's default) or by ``max(staleness, 1)`` (``"tau"``, Zhang et al. 2016).
- **sync**: every step waits for all N gradients (the step lasts as long as the slowest worker)
  and applies their average; **sync with b backup workers** starts N + b and keeps the first N.

A model is a ``problems`` object (gradient on a stack of parameter rows, exact excess loss), or
None to simulate staleness only. Every random draw comes from ``seed``: compute times from one
generator per worker (``sim.des.ComputeTime.stream``), data from one generator in apply order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import simpy

from sim.des.stragglers import ComputeTime

DIVERGED = 1e6       # a loss this many times its start (or inf/NaN) counts as diverged
CHECK = 64           # async runs look for diverged rows every CHECK updates


@dataclass
class Run:
    """What one simulated run produced (arrays in apply order; ``loss`` is (updates, rows))."""
    regime: str
    workers: int
    lr: np.ndarray
    time: np.ndarray                       # apply time of each update / step
    loss: np.ndarray | None = None
    start_loss: np.ndarray | None = None
    worker: np.ndarray | None = None       # async: who sent each update
    read_time: np.ndarray | None = None
    staleness: np.ndarray | None = None
    diverged: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    clock_gap: np.ndarray | None = None    # async: the applying worker's clock minus the slowest's

    def time_to(self, fraction):
        """Per row: the first apply time at which loss <= fraction x start loss (inf if never)."""
        hit = self.loss <= fraction * self.start_loss
        out = np.full(self.loss.shape[1], math.inf)
        for r in range(self.loss.shape[1]):
            idx = np.flatnonzero(hit[:, r])
            if idx.size and not self.diverged[r]:
                out[r] = self.time[idx[0]]
        return out

    def final_loss(self, last=200):
        """Per row: the mean loss over the last ``last`` updates (inf if the row diverged)."""
        out = self.loss[-last:].mean(axis=0)
        return np.where(self.diverged, math.inf, out)


def _lr_rows(lr):
    return np.atleast_1d(np.asarray(lr, dtype=float))


def run_async(problem, workers, compute, updates=None, until=None, lr=0.1, rule=None, batch=32,
              seed=0, scales=None, ssp=None) -> Run:
    """Asynchronous parameter-server SGD with ``workers`` workers.

    Stops after ``updates`` applied updates or at simulated time ``until``. ``rule``: None
    (plain), ``"1+tau"`` or ``"tau"`` (staleness-aware). ``scales``: per-worker slowdown factors
    of the compute time (heterogeneous workers). ``ssp``: the stale-synchronous bound s (None:
    unbounded), a worker more than s updates ahead of the slowest waits.

    The clock never depends on the model, so SimPy runs the events alone and records which
    version each update read; ``_train`` then applies the updates in that order (the same
    arithmetic, many updates per NumPy call).
    """
    if updates is None and until is None:
        raise ValueError("give updates= or until=")
    if rule not in (None, "1+tau", "tau"):
        raise ValueError(f"rule must be None, '1+tau' or 'tau', got {rule!r}")
    if ssp is not None and (int(ssp) != ssp or ssp < 0):
        raise ValueError(f"ssp must be a whole number of updates >= 0 (or None), got {ssp!r}")
    compute = compute if isinstance(compute, ComputeTime) else ComputeTime(fixed=float(compute))
    env = simpy.Environment()
    lrs = _lr_rows(lr)
    who, read_t, apply_t, tau, gap = [], [], [], [], []  # per applied update, in apply order
    clocks = [0] * workers                               # updates each worker has applied
    at_clock = {0: workers}                              # how many workers are at each clock
    slowest = [0]                                        # min(clocks), kept in O(1) per update
    progress = [env.event()]                             # SSP: fires when a clock moves
    state = [0]                                          # updates applied = the ps version
    finished = env.event()
    scales = scales or [1.0] * workers

    def worker(i, times):
        while True:
            while ssp is not None and clocks[i] - slowest[0] > ssp:
                yield progress[0]                        # SSP: too far ahead of the slowest
            v0, t0 = state[0], env.now
            yield env.timeout(next(times))
            if finished.triggered:
                return
            n = state[0]
            who.append(i)
            read_t.append(t0)
            apply_t.append(env.now)
            tau.append(n - v0)
            c = clocks[i]
            gap.append(c - slowest[0])
            clocks[i] = c + 1
            at_clock[c] -= 1
            at_clock[c + 1] = at_clock.get(c + 1, 0) + 1
            if at_clock[c] == 0:
                del at_clock[c]
                if c == slowest[0]:
                    slowest[0] = c + 1
            if ssp is not None:
                progress[0].succeed()
                progress[0] = env.event()
            state[0] = n + 1
            if updates is not None and n + 1 >= updates:
                finished.succeed()
                return

    for i in range(workers):
        env.process(worker(i, compute.stream(seed, i, scales[i])))
    env.run(until=finished if until is None else until)
    staleness = np.array(tau, np.int64)
    losses, start_loss, diverged = None, None, np.zeros(len(lrs), bool)
    if problem is not None:
        data = problem.batch_stack(batch, np.random.default_rng([seed, 1_000_003]), len(tau))
        losses, start_loss, diverged = _train(problem, lrs, staleness, rule, data)
    return Run("async" if rule is None else f"async ({rule})", workers, lrs, np.array(apply_t),
               losses, start_loss, np.array(who, np.int32), np.array(read_t), staleness,
               diverged, np.array(gap, np.int64))


def _train(problem, lrs, staleness, rule, data):
    """Apply the updates of an async run in order: update k is the gradient at version
    ``k - staleness[k]`` on minibatch k, scaled by the rule, subtracted from version k.

    Updates whose reads all precede their run (at most ``CHECK`` long) are computed together:
    one stacked gradient, and ``np.subtract.accumulate`` subtracts them one after another
    exactly as a loop would. Every ``CHECK`` updates rows that blew up are marked diverged and
    frozen at the start (so NumPy never runs on overflowing values for long); a frozen row's
    loss is inf from its first blown-up update on. Returns (losses, start loss, diverged)."""
    n = len(staleness)
    start = problem.start(len(lrs))
    start_loss = problem.excess(start)
    versions = np.empty((n + 1,) + start.shape)          # [v]: the parameters after v updates
    versions[0] = start
    read = np.arange(n) - staleness
    divisor = {None: None, "1+tau": 1 + staleness, "tau": np.maximum(staleness, 1)}[rule]
    plain_step = lrs[:, None]
    diverged = np.zeros(len(lrs), bool)
    before_freeze = {}                                   # version: its values before a freeze

    def check(v):
        loss = problem.excess(versions[v])
        bad = ~np.isfinite(loss) | (loss > DIVERGED * start_loss)
        if bad.any():
            diverged[bad] = True
            before_freeze[v] = versions[v].copy()
            versions[v] = np.where(diverged[:, None], start, versions[v])

    with np.errstate(over="ignore", invalid="ignore"):
        a = 0
        while a < n:
            end = min(n, (a // CHECK + 1) * CHECK)
            later = np.flatnonzero(read[a + 1:end] > a)
            b = a + 1 + int(later[0]) if later.size else end
            step = plain_step * problem.gradients(versions[read[a:b]], _rows(data, a, b))
            if divisor is not None:
                step = step / divisor[a:b, None, None]
            step = np.concatenate([versions[a][None], step])
            versions[a + 1:b + 1] = np.subtract.accumulate(step, axis=0)[1:]
            if b % CHECK == 0:
                check(b)
            a = b
        check(n)
        history = versions[1:]
        if before_freeze:
            history = history.copy()
            for v, values in before_freeze.items():
                history[v - 1] = values
        losses = problem.excess(history)
        blown = ~np.isfinite(losses) | (losses > DIVERGED * start_loss)
        diverged |= blown.any(axis=0)
        first = np.where(blown.any(axis=0), blown.argmax(axis=0), n)
        losses[np.arange(n)[:, None] >= first[None, :]] = np.inf
    return losses, start_loss, diverged


def _rows(data, a, b):
    """Minibatches a..b-1 of a ``batch_stack`` (None for problems without data)."""
    return None if data is None else tuple(x[a:b] for x in data)


def run_sync(problem, workers, compute, until, lr=1.0, backups=0, batch=32, seed=0) -> Run:
    """Synchronous SGD: each step waits for the first ``workers`` of ``workers + backups``
    gradients (the others are dropped) and applies their average."""
    compute = compute if isinstance(compute, ComputeTime) else ComputeTime(fixed=float(compute))
    env = simpy.Environment()
    lrs = _lr_rows(lr)
    data = problem.batches(batch * workers, np.random.default_rng([seed, 1_000_003]))
    streams = [compute.stream(seed, i) for i in range(workers + backups)]
    w = problem.start(len(lrs))
    start_loss = problem.excess(w)
    times, losses = [], []
    diverged = np.zeros(len(lrs), bool)

    def steps():
        nonlocal w
        while True:
            arrive = sorted(next(s) for s in streams)
            yield env.timeout(arrive[workers - 1])
            g = problem.gradient(w, next(data))
            w = w - lrs[:, None] * g
            loss = problem.excess(w)
            bad = ~np.isfinite(loss) | (loss > DIVERGED * start_loss)
            if bad.any():
                diverged[bad] = True
                w[diverged] = problem.start(1)[0]
                loss = np.where(diverged, np.inf, loss)
            times.append(env.now)
            losses.append(loss)

    env.process(steps())
    with np.errstate(over="ignore", invalid="ignore"):
        env.run(until=until)
    name = "sync" if not backups else f"sync + {backups} backups"
    return Run(name, workers, lrs, np.array(times), np.array(losses), start_loss,
               diverged=diverged)
