"""Experiments E4, E5, E6 of scaling_and_staleness.md §3 with their pass criteria.

Staleness convention: updates applied between a worker's read and its own apply (0 = fresh).
"""
import math

import numpy as np
import pytest

from sim.des import ComputeTime
from sim.scaling.problems import Quadratic, staleness_regression
from sim.scaling.staleness_regimes import run_async, run_sync

CONSTANT = ComputeTime(fixed=1)
EXPONENTIAL = ComputeTime(exponential=1)
SHIFTED = ComputeTime(fixed=1, exponential=0.25)


# -- E4: the simulator's staleness distribution ---------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_e4_staleness_distribution(n):
    runs = {name: run_async(None, n, c, updates=21000, seed=n).staleness[1000:]
            for name, c in (("constant", CONSTANT), ("exponential", EXPONENTIAL),
                            ("shifted", SHIFTED))}
    for tau in runs.values():                                   # 1. mean N - 1 within 2%
        assert tau.mean() == pytest.approx(n - 1, rel=0.02)
    assert np.all(runs["constant"] == n - 1)                    # 2. constant: always N - 1
    tau = runs["exponential"]                                   # 3. geometric law
    for k in range(4):
        assert abs(np.mean(tau == k) - (1 / n) * (1 - 1 / n) ** k) < 0.01
    assert tau.var() == pytest.approx(n * (n - 1), rel=0.05)
    assert 0 < runs["shifted"].std() < math.sqrt(n * (n - 1))   # 4. narrower than geometric


def test_e4_ssp_bound_caps_the_clock_gap():
    """6. With an SSP bound s, no gradient is applied with a clock gap above s."""
    slow = [4.0] + [1.0] * 7
    free = run_async(None, 8, EXPONENTIAL, updates=20_000, seed=5, scales=slow)
    assert free.clock_gap.max() > 2                             # unbounded: the gap grows
    for s in (0, 2, 5):
        bounded = run_async(None, 8, EXPONENTIAL, updates=20_000, seed=5, scales=slow, ssp=s)
        assert bounded.clock_gap.max() <= s
        assert len(bounded.staleness) == 20_000
    with pytest.raises(ValueError, match="ssp"):
        run_async(None, 2, EXPONENTIAL, updates=10, ssp=-1)


def test_e4_heterogeneous_workers():
    run = run_async(None, 8, EXPONENTIAL, updates=100_000, seed=3, scales=[4.0] + [1.0] * 7)
    tau, who = run.staleness[1000:], run.worker[1000:]
    assert tau.mean() == pytest.approx(7, rel=0.02)             # the average is still N - 1
    assert tau[who == 0].mean() == pytest.approx(4 * 7, rel=0.05)   # m_slow * sum 1/m_j
    others = [tau[who == k].mean() for k in range(1, 8)]
    assert all(v == pytest.approx(6.25, rel=0.05) for v in others)


# -- E5: staleness against stability, and the staleness-aware fix --------------------------------
def _largest_stable_lr(n, rounds=3, points=33):
    """Bisect (33 learning rates at a time) the largest stable eta on a 1-D quadratic."""
    lo, hi = 0.02, 2.0
    for _ in range(rounds):
        etas = np.linspace(lo, hi, points)
        run = run_async(Quadratic(), n, CONSTANT, updates=600 * n, lr=etas)
        loss = run.loss
        early = loss[len(loss) // 10:len(loss) // 5].max(axis=0)
        late = loss[-len(loss) // 10:].max(axis=0)
        stable = np.flatnonzero((late < early) & ~run.diverged)
        last = stable.max()
        lo, hi = etas[last], etas[min(last + 1, points - 1)]
    return (lo + hi) / 2


@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_e5a_levin_may_limit(n):
    assert _largest_stable_lr(n) == pytest.approx(2 * math.sin(math.pi / (4 * n - 2)), rel=0.02)


def test_e5b_staleness_aware_rate_restores_convergence():
    problem = staleness_regression(seed=0)
    etas = [0.1, 0.3, 0.6, 1.0]
    plain, aware, peak = {}, {}, {}
    for n in (1, 4, 8, 16):
        run = run_async(problem, n, EXPONENTIAL, updates=3000, lr=etas, seed=0)
        plain[n], peak[n] = run.final_loss(), run.loss.max(axis=0) / run.start_loss
        for rule in ("tau", "1+tau") if n >= 8 else ("tau",):
            aware[n, rule] = run_async(problem, n, EXPONENTIAL, updates=3000, lr=etas, rule=rule,
                                       seed=0)
    assert math.isinf(plain[16][2])                               # N=16, eta=0.6 diverges
    # N=8, eta=0.6: on the edge here (the reference's own scratch limit is about 0.68): the
    # loss swings to over 100x its start without reaching the 1e6x divergence threshold.
    assert peak[8][2] > 100 and peak[1][2] <= 1.0
    for run in aware.values():                                    # never diverges
        assert not run.diverged.any()
    assert plain[16][1] >= 3 * aware[16, "tau"].final_loss()[1]  # N=16, eta=0.3: 3x lower
    assert plain[16][1] >= 3 * aware[16, "1+tau"].final_loss()[1]
    assert plain[4][0] <= 2 * plain[1][0]                         # N=4, eta=0.1 ~ one worker
    assert plain[1][0] < plain[4][0] < plain[8][0] < plain[16][0]  # the noise floor rises with N


# -- E6: stragglers: sync, sync with backups, async --------------------------------------------
def test_e6_sync_backups_async_under_stragglers():
    problem = staleness_regression(seed=0)
    shifted = ComputeTime(fixed=1, exponential=1)
    mixture = ComputeTime(fixed=1, slow=10, slow_prob=0.05, exponential=0.1)
    sync = run_sync(problem, 8, shifted, until=400, lr=1.0)
    backup = run_sync(problem, 8, shifted, until=400, lr=1.0, backups=2)
    h = lambda n: sum(1 / k for k in range(1, n + 1))                    # noqa: E731
    assert len(sync.time) == pytest.approx(400 / (1 + h(8)), rel=0.05)           # (a) 3.72
    assert len(backup.time) == pytest.approx(400 / (1 + h(10) - h(2)), rel=0.05)  # (a) 2.43
    m_sync = run_sync(problem, 8, mixture, until=400, lr=1.0)
    m_backup = run_sync(problem, 8, mixture, until=400, lr=1.0, backups=2)
    assert m_backup.time_to(0.01)[0] <= 0.5 * m_sync.time_to(0.01)[0]             # (b)
    for c, t_sync in ((shifted, sync.time_to(0.01)[0]), (mixture, m_sync.time_to(0.01)[0])):
        plain = run_async(problem, 8, c, until=400, lr=[0.1, 0.3, 0.6])
        assert plain.diverged.tolist() == [False, False, True]                    # (c)
        aware = run_async(problem, 8, c, until=400, lr=0.6, rule="tau")
        assert not aware.diverged[0] and aware.time_to(0.01)[0] < t_sync
        assert len(plain.time) == pytest.approx(8 * 400 / c.mean, rel=0.05)       # (d)
        assert len(aware.time) == pytest.approx(8 * 400 / c.mean, rel=0.05)
