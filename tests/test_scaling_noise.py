"""The two-batch noise-scale estimator recovers B_simple where it has a closed form.

Problem: least squares with Gaussian inputs x ~ N(0, S), S the E1 covariance (eigenvalues 1 ..
0.1), label noise sigma = 1, at a fixed error e = w - w*. Closed form (reference §2.5):
B_simple = 1 + tr(S)(e'Se + sigma^2)/(e'S^2e). Stated tolerance: within 10% after 2,000 pairs
of draws (B_small 8, B_big 512), the reference's setting.
"""
import numpy as np
import pytest

from sim.i18n import set_language
from sim.scaling import (NoiseScaleMeter, b_simple, linear_regression_noise_scales, trace_sigma,
                         true_gradient_sq)
from sim.scaling.regression import StreamingRegression

B_SMALL, B_BIG, DRAWS = 8, 512, 2000


def squared_norms(problem, error, draws, seed):
    """|G_small|^2 (first B_SMALL examples) and |G_big|^2 (all B_BIG) per draw, as one replica's
    local gradient and the all-reduced global one would give them."""
    rng = np.random.default_rng(seed)
    w = problem.w_star + error
    small, big = [], []
    for _ in range(draws // 100):
        x, y = problem.draws(rng, 100, B_BIG)                     # 100 draws of B_BIG examples
        per_example = (x @ w - y)[..., None] * x                  # (100, B_BIG, dim)
        small.append(np.sum(per_example[:, :B_SMALL].mean(axis=1) ** 2, axis=1))
        big.append(np.sum(per_example.mean(axis=1) ** 2, axis=1))
    return np.concatenate(small), np.concatenate(big)


@pytest.fixture(scope="module")
def measured():
    problem = StreamingRegression(seed=0)
    error = 0.3 * np.random.default_rng(1).standard_normal(problem.dim)
    return problem, error, squared_norms(problem, error, DRAWS, seed=2)


def test_closed_forms_agree_with_the_definitions(measured):
    """Sigma = S e e'S + (e'Se + sigma^2) S for Gaussian inputs (Isserlis); G = S e; H = S."""
    problem, error, _ = measured
    s, e = problem.cov, error
    g = s @ e
    sigma = np.outer(g, g) + (e @ s @ e + 1.0) * s
    b_s, b_n = linear_regression_noise_scales(s, e, 1.0)
    assert b_s == pytest.approx(np.trace(sigma) / (g @ g))
    assert b_n == pytest.approx(np.trace(s @ sigma) / (g @ s @ g))


def test_estimator_recovers_b_simple_within_ten_percent(measured):
    problem, error, (small, big) = measured
    exact, _ = linear_regression_noise_scales(problem.cov, error, problem.noise_std)
    estimate = b_simple(small, big, B_SMALL, B_BIG)
    assert estimate == pytest.approx(exact, rel=0.10)


def test_both_parts_are_unbiased(measured):
    problem, error, (small, big) = measured
    s, e = problem.cov, error
    g2 = e @ s @ s @ e
    trace = g2 + np.trace(s) * (e @ s @ e + 1.0)
    assert np.mean(true_gradient_sq(small, big, B_SMALL, B_BIG)) == pytest.approx(g2, rel=0.10)
    assert np.mean(trace_sigma(small, big, B_SMALL, B_BIG)) == pytest.approx(trace, rel=0.05)


def test_isotropic_problem_b_simple_equals_b_noise():
    problem = StreamingRegression(dim=8, eig_max=1.0, eig_min=1.0, seed=3)
    error = np.full(8, 0.5)
    b_s, b_n = linear_regression_noise_scales(problem.cov, error, 1.0)
    assert b_s == pytest.approx(b_n)
    small, big = squared_norms(problem, error, 1000, seed=4)
    assert b_simple(small, big, B_SMALL, B_BIG) == pytest.approx(b_s, rel=0.10)


def test_running_meter_tracks_the_same_value(measured):
    problem, error, (small, big) = measured
    meter = NoiseScaleMeter(B_SMALL, B_BIG, decay=0.999)
    for a, b in zip(small, big):
        meter.update(a, b)
    exact, _ = linear_regression_noise_scales(problem.cov, error, problem.noise_std)
    assert meter.value == pytest.approx(exact, rel=0.15)
    assert np.isnan(NoiseScaleMeter(B_SMALL, B_BIG).value)


def test_bad_sizes_and_a_drowned_signal_are_explained():
    set_language("en")
    with pytest.raises(ValueError, match="needs 0 < b_small < b_big"):
        b_simple([1.0], [0.5], 64, 8)
    with pytest.raises(ValueError, match="buried in noise"):
        b_simple([1.0], [1.0 / 8], 8, 64)     # exactly pure noise: |G|^2 estimate 0
