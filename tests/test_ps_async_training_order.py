"""run_async's model replay is the plain loop: update k reads version k - staleness[k].

``staleness_regimes._train`` applies many updates per NumPy call; this reference applies one at a
time, exactly as the definition reads (gradient at the version read, scaled by the rule,
subtracted from the latest version; every CHECK updates, blown-up rows frozen at the start). The
two must agree bit for bit, diverging rows included.
"""
import numpy as np
import pytest

from sim.des import ComputeTime
from sim.scaling import staleness_regimes as regimes
from sim.scaling.problems import Quadratic, staleness_regression


def _one_at_a_time(problem, lrs, staleness, rule, batch, seed):
    data = problem.batches(batch, np.random.default_rng([seed, 1_000_003]))
    start = problem.start(len(lrs))
    start_loss = problem.excess(start)
    versions, raw = [start], []
    diverged = np.zeros(len(lrs), bool)
    with np.errstate(over="ignore", invalid="ignore"):
        for k, stale in enumerate(staleness):
            g = problem.gradient(versions[k - stale], next(data))
            divisor = {None: 1, "1+tau": 1 + stale, "tau": max(stale, 1)}[rule]
            step = lrs[:, None] * g
            new = versions[k] - (step if rule is None else step / divisor)
            raw.append(new)
            loss = problem.excess(new)
            bad = ~np.isfinite(loss) | (loss > regimes.DIVERGED * start_loss)
            if (k + 1) % regimes.CHECK == 0 and bad.any():
                diverged |= bad
                new = np.where(diverged[:, None], start, new)
            versions.append(new)
        losses = problem.excess(np.array(raw))
        blown = ~np.isfinite(losses) | (losses > regimes.DIVERGED * start_loss)
        first = np.where(blown.any(axis=0), blown.argmax(axis=0), len(raw))
        losses[np.arange(len(raw))[:, None] >= first[None, :]] = np.inf
    return losses


@pytest.mark.parametrize("problem, workers, rule", [
    (staleness_regression(seed=1, condition=30), 16, None),
    (staleness_regression(seed=0), 8, "1+tau"),
    (staleness_regression(seed=0), 8, "tau"),
    (staleness_regression(seed=0), 1, None),
    (Quadratic(), 4, None),
])
def test_replay_matches_the_one_update_loop(problem, workers, rule):
    lrs = np.geomspace(0.002, 3.0, 7)
    run = regimes.run_async(problem, workers, ComputeTime(exponential=1.0), updates=1500,
                            lr=lrs, rule=rule, batch=32, seed=3)
    expected = _one_at_a_time(problem, lrs, run.staleness, rule, 32, 3)
    np.testing.assert_array_equal(run.loss, expected)
    assert run.diverged.any() and not run.diverged.all()     # both kinds of rows were exercised
