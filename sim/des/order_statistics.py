"""Stragglers and backup workers in the step time: order statistics of the workers' compute times.

Used by the planner (``sim.plan.stragglers``) and by model mode (``sim.scaleout.step``).

Each worker's compute time in a step is ``compute x X``, X drawn from a ``sim.des.ComputeTime``
of mean about 1 (``NONE = ComputeTime(fixed=1)``: every GPU identical, the plan's default).

- synchronous, N workers: a step waits for the slowest, E[max of N X] (scaling_and_staleness.md
  §1.2; for X = 1 + Exp(m): 1 + m H_N);
- synchronous with b backup workers (TF1's SyncReplicasOptimizer, replicas_to_aggregate = N of
  total_num_replicas = N + b; Chen et al. 2016): the N-th fastest of N + b,
  E[X_(N:N+b)] (= 1 + m (H_(N+b) - H_b) for the shifted exponential);
- asynchronous: nobody waits, each worker's updates come every E[X] on average.

``expected_order(compute, k, n)`` computes E[X_(k:n)] by integrating its survival function
P(X_(k:n) > x) = P(fewer than k of n are done by x), binomial in F(x), on a fine grid: exact for
any ComputeTime, and checked against the harmonic-number closed forms in the tests.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from sim.des.stragglers import ComputeTime

NONE = ComputeTime(fixed=1.0)


def _cdf(compute: ComputeTime, x: np.ndarray) -> np.ndarray:
    """P(X <= x) for fixed (or slow with slow_prob) + Exp(mean exponential)."""
    def shifted(at):
        if compute.exponential > 0:
            return np.where(x >= at, 1 - np.exp(-(x - at) / compute.exponential), 0.0)
        return (x >= at).astype(float)
    fast = shifted(compute.fixed)
    if compute.slow_prob > 0:
        return (1 - compute.slow_prob) * fast + compute.slow_prob * shifted(compute.slow)
    return fast


@lru_cache(maxsize=1024)
def expected_order(compute: ComputeTime, k: int, n: int) -> float:
    """E[X_(k:n)], the k-th smallest of n independent draws of ``compute``."""
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")
    if compute.exponential == 0 and compute.slow_prob in (0, 1):
        return compute.slow if compute.slow_prob == 1 else compute.fixed
    top = max(compute.fixed, compute.slow) + compute.exponential * (math.log(n) + 40)
    x = np.linspace(0.0, top, 200_001)
    f = np.clip(_cdf(compute, x), 0.0, 1.0)
    # P(at least k of n done by x) = sum_{j>=k} C(n,j) f^j (1-f)^(n-j), in logs for large n
    j = np.arange(k, n + 1)[:, None]
    logc = np.array([math.lgamma(n + 1) - math.lgamma(v + 1) - math.lgamma(n - v + 1)
                     for v in range(k, n + 1)])[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        lf, l1f = np.log(f)[None, :], np.log1p(-f)[None, :]
        rest = np.where(n - j == 0, 0.0, (n - j) * l1f)        # 0 x log(0) is 0 here
        terms = np.exp(logc + j * lf + rest)
    done = np.clip(terms.sum(axis=0), 0.0, 1.0)
    return float(np.trapezoid(1.0 - done, x))


def sync_factor(compute: ComputeTime, workers: int, backups: int = 0) -> float:
    """How many times one compute the synchronous step's compute lasts: E[X_(N:N+b)]."""
    return expected_order(compute, workers, workers + backups)


def async_factor(compute: ComputeTime) -> float:
    """An asynchronous worker's mean compute, in computes: E[X]."""
    return compute.mean


def harmonic(n: int) -> float:
    return sum(1.0 / i for i in range(1, n + 1))
