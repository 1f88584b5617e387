"""Asynchrony's convergence cost, derived from the staleness the simulator measures.

N asynchronous workers (TF2's ParameterServerStrategy), each updating with its own batch b. Three
facts combine (scaling_and_staleness.md §1):

1. **Staleness, measured.** ``measured_staleness(N)`` runs lesson 07's simulated parameter
   servers (``sim.scaling.staleness_regimes.run_async``, staleness only) and returns the mean
   staleness tau of the applied gradients (N - 1 with equal workers).
2. **Implicit momentum** (Mitliagkas et al. 2016, "Asynchrony begets momentum"): with geometric
   staleness of mean tau, asynchrony behaves like momentum mu_a = tau / (1 + tau) = 1 - 1/N, with
   the same long-run step per update. The recipe wants momentum mu_r, so the run lowers its
   explicit momentum to mu_e = max(0, mu_r - mu_a) (their advice); past N = 1 / (1 - mu_r) the
   implicit momentum alone is more than the recipe's.
3. **The rate the recipe wants** per update: N stale updates of batch b should do the work of one
   synchronous update of batch N b at the recipe's rate eta(N b) with its momentum, so

       eta_want = eta(N b) (1 - mu_e) / (N (1 - mu_r))

   and **the largest stable rate** at that staleness (lesson 07's bound, with momentum mu_e):
   ``stable_product(tau, mu_e)``, the largest a = eta lambda for which
   x[t+1] = x[t] + mu_e (x[t] - x[t-1]) - a x[t-tau] converges (2 sin(pi / (2 (2 tau + 1))) when
   mu_e = 0; 2 (1 + mu) when tau = 0). The curvature lambda is read off the recipe: its
   ``edge_rate`` is taken as the fresh-gradient edge of momentum SGD, eta lambda = 2 (1 + mu_r).

If eta_want is above the stable rate eta_s, the run must use eta_s and, while steps are
proportional to the rate (below the critical batch), needs k = eta_want / eta_s times the updates:

    updates = N x steps(N b) x max(1, k)

marked ``extrapolated`` when k > 1 (longer than any published run of the recipe), and ``not
reached`` when N b is past the largest batch the recipe is known to reach the target at (by the
equivalence above asynchrony does no better than that batch). Stated simplifications: the bound
is a fixed delay's (random staleness is gentler, lesson 07, so k is an upper estimate at a given
curvature); the curvature comes from one rate; excess momentum beyond the recipe's is not priced.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=256)
def measured_staleness(workers: int, exponential: float = 0.0, seed: int = 0) -> float:
    """Mean staleness of the applied gradients on lesson 07's simulated parameter servers:
    ``workers`` workers, compute time 1 (+ Exp(mean ``exponential``)), the first quarter dropped."""
    if workers == 1:
        return 0.0
    from sim.des import ComputeTime
    from sim.scaling.staleness_regimes import run_async
    compute = ComputeTime(fixed=1.0, exponential=exponential)
    updates = 12 * workers if exponential == 0 else 200 * workers
    run = run_async(None, workers, compute, updates=updates, seed=seed)
    tau = np.asarray(run.staleness, dtype=float)
    return float(tau[len(tau) // 4:].mean())


def implicit_momentum(tau: float) -> float:
    """Mitliagkas et al. 2016: geometric staleness of mean tau acts as momentum tau / (1 + tau)."""
    return tau / (1.0 + tau)


def _spectral_radius(a: float, tau: int, mu: float) -> float:
    """Largest root modulus of z^(tau+1) - (1+mu) z^tau + mu z^(tau-1) + a (tau >= 1), or of
    z^2 - (1+mu-a) z + mu (tau = 0): the recursion converges iff it is below 1."""
    if tau == 0:
        coeffs = np.array([1.0, -(1.0 + mu - a), mu])
    else:
        coeffs = np.zeros(tau + 2)
        coeffs[0], coeffs[1] = 1.0, -(1.0 + mu)
        coeffs[2] += mu
        coeffs[-1] += a
    return float(np.max(np.abs(np.roots(coeffs))))


@lru_cache(maxsize=1024)
def stable_product(tau: float, mu: float = 0.0) -> float:
    """The largest eta x lambda at which delayed (momentum) gradient descent converges."""
    tau_i = int(round(tau))
    if mu == 0.0:
        return 2.0 * math.sin(math.pi / (2 * (2 * tau_i + 1)))
    if tau_i == 0:
        return 2.0 * (1.0 + mu)
    lo, hi = 0.0, 2.0 * (1.0 + mu)
    step = hi / 400             # the first crossing from the stable side, then bisect
    a = step
    while a < hi and _spectral_radius(a, tau_i, mu) < 1.0:
        a += step
    lo, hi = a - step, min(a, hi)
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _spectral_radius(mid, tau_i, mu) < 1.0 else (lo, mid)
    return lo


@dataclass(frozen=True)
class AsyncCost:
    workers: int
    batch: int                  # one worker's batch
    tau: float                  # mean staleness, measured
    implicit: float             # mu_a
    explicit: float             # mu_e
    want: float                 # eta_want per update
    stable: float               # eta_s
    updates: float              # to the target, all workers together (inf: not reached)
    status: str                 # recipe status, or "extrapolated" when slowed

    @property
    def slowdown(self) -> float:
        return max(1.0, self.want / self.stable)

    @property
    def learning_rate(self) -> float:
        """The per-update rate the run uses."""
        return min(self.want, self.stable)


def async_cost(recipe, workers: int, batch: int, tau: float | None = None) -> AsyncCost:
    """The derivation of the module docstring for one candidate."""
    tau = measured_staleness(workers) if tau is None else tau
    equivalent = workers * batch
    mu_r = recipe.momentum(equivalent)
    mu_a = implicit_momentum(tau)
    mu_e = max(0.0, mu_r - mu_a)
    want = recipe.learning_rate(equivalent) * (1 - mu_e) / (workers * (1 - mu_r))
    curvature = 2 * (1 + mu_r) / recipe.edge_rate         # 0 when no edge is known (inf rate)
    stable = stable_product(tau, round(mu_e, 6)) / curvature if curvature > 0 else math.inf
    status = recipe.status(equivalent)
    steps = recipe.steps(equivalent)
    k = max(1.0, want / stable)
    updates = workers * steps * k if math.isfinite(steps) else math.inf
    if k > 1.0 and status != "not reached":
        status = "extrapolated"
    return AsyncCost(workers, batch, tau, mu_a, mu_e, want, stable, updates, status)
