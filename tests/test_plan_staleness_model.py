"""The plan's staleness model, N stale updates of batch b ~ one synchronous update of batch N b
(so async needs N S(N b) updates), against lesson 07's simulated parameter servers: it holds at a
small learning rate and fails where the lesson says it does, at a large one."""
import numpy as np
import pytest

from sim.des import ComputeTime
from sim.scaling.problems import StreamingRegression
from sim.scaling.staleness_regimes import run_async, run_sync


def _ratio(workers, lr, seed):
    """Async updates to 5% over N x synchronous steps to 5% (the sync step at lr x N)."""
    problem = StreamingRegression(seed=0)
    a = run_async(problem, workers, ComputeTime(fixed=1.0), updates=8000, lr=[lr], batch=8, seed=seed)
    s = run_sync(problem, workers, ComputeTime(fixed=1.0), until=4000, lr=[workers * lr], batch=8, seed=seed)
    return (a.time_to(0.05)[0] * workers) / (workers * s.time_to(0.05)[0])


@pytest.mark.parametrize("workers,lr", [(4, 0.02), (8, 0.01), (16, 0.02)])
def test_small_rate_async_updates_are_n_times_the_sync_steps_of_batch_n_b(workers, lr):
    ratios = [_ratio(workers, lr, seed) for seed in range(3)]
    assert 0.75 < np.median(ratios) < 1.1, ratios


def test_at_a_large_rate_stale_gradients_diverge_where_sync_converges():
    problem = StreamingRegression(seed=0)
    workers, lr = 8, 0.3            # eta lambda_max = 0.3 > 2 sin(pi / 30) = 0.209 for tau = 7
    a = run_async(problem, workers, ComputeTime(fixed=1.0), updates=4000, lr=[lr], batch=8, seed=0)
    s = run_sync(problem, workers, ComputeTime(fixed=1.0), until=2000, lr=[lr * workers / 2], batch=8, seed=0)
    assert a.diverged[0] and np.isinf(a.time_to(0.05)[0])
    assert not s.diverged[0] and np.isfinite(s.time_to(0.05)[0])
