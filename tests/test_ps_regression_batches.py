"""The streaming regression's minibatches have the law of B fresh samples (closed forms).

Drawing (X'X/B, X'y/B) through Bartlett's decomposition must give the same first and second
moments as averaging B samples x ~ N(0, S), y = x.w* + e, e ~ N(0, noise^2), S diagonal:
    E[X'X/B] = S,  B Var((X'X/B)_ij) = S_ij^2 + S_ii S_jj,
    E[X'y/B] = S w*,  B Cov(X'y/B) = (w*'S w* + noise^2) S + S w* w*' S.
Both paths are checked: Bartlett (batch >= dim) and drawn samples (batch < dim).
"""
import numpy as np
import pytest

from sim.scaling.problems import staleness_regression

DRAWS = 40_000


def _moments(problem, batch, seed):
    stream = problem.batches(batch, np.random.default_rng(seed))
    pairs = [next(stream) for _ in range(DRAWS)]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


@pytest.mark.parametrize("batch", [32, 16, 5])
def test_batches_match_the_closed_form_moments(batch):
    problem = staleness_regression(dim=6, condition=10.0, noise=0.7, seed=3)
    xtx, xty = _moments(problem, batch, seed=11)
    s = np.diag(problem.eigenvalues)
    w = problem.w_star
    se = np.sqrt(np.outer(np.diag(s), np.diag(s)) / batch / DRAWS)       # std error of the mean
    assert np.all(np.abs(xtx.mean(0) - s) < 5 * se + 1e-12)
    var_xtx = (s ** 2 + np.outer(np.diag(s), np.diag(s))) / batch
    np.testing.assert_allclose(xtx.var(0), var_xtx, rtol=0.06)
    cov_xty = ((w @ s @ w + problem.noise ** 2) * s + np.outer(s @ w, s @ w)) / batch
    assert np.all(np.abs(xty.mean(0) - s @ w) < 5 * np.sqrt(np.diag(cov_xty) / DRAWS))
    np.testing.assert_allclose(np.cov(xty.T), cov_xty, rtol=0.06, atol=0.02 * cov_xty.max())


def test_batches_are_symmetric_and_seeded():
    problem = staleness_regression(seed=0)
    a = problem.batches(32, np.random.default_rng(4))
    b = problem.batches(32, np.random.default_rng(4))
    for _ in range(300):
        (xa, ya), (xb, yb) = next(a), next(b)
        np.testing.assert_array_equal(xa, xb)
        np.testing.assert_array_equal(ya, yb)
        np.testing.assert_allclose(xa, xa.T, atol=1e-12)
        assert np.all(np.linalg.eigvalsh(xa) > 0)          # batch >= dim: X'X is definite


@pytest.mark.parametrize("batch, count", [(32, 700), (5, 300), (32, 0)])
def test_batch_stack_is_the_stream_stacked(batch, count):
    problem = staleness_regression(seed=2)
    stream = problem.batches(batch, np.random.default_rng(9))
    xtx, xty = problem.batch_stack(batch, np.random.default_rng(9), count)
    assert xtx.shape == (count, problem.dim, problem.dim) and xty.shape == (count, problem.dim)
    for k in range(count):
        x, y = next(stream)
        np.testing.assert_array_equal(xtx[k], x)
        np.testing.assert_array_equal(xty[k], y)
