"""E7 (optional in the reference): B_simple from a MirroredStrategy run's own gradients.

Four simulated GPUs, 32 examples each: every step gives four local squared norms (b_small = 32)
and the all-reduced one (b_big = 128). Stated tolerance: within 10% of the closed form after 200
steps, at two points of the E1 regression, and the estimate rises as the weights near w*.
"""
import numpy as np
import pytest

import sim.tf as tf
from sim import scaling
from sim.scaling.regression import StreamingRegression
from sim.scaling.replica_norms import regression_gradient_norms

pytestmark = pytest.mark.lesson08
PER_REPLICA, REPLICAS, DRAWS = 32, 4, 200


@pytest.fixture(scope="module")
def estimates():
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(REPLICAS)])
    problem = StreamingRegression(seed=0)
    out = {}
    for fraction in (0.0, 0.7):               # w = fraction * w*: the start, then later in training
        w = fraction * problem.w_star
        small, big = regression_gradient_norms(strategy, problem, w, PER_REPLICA, DRAWS, seed=1)
        assert len(small) == REPLICAS * DRAWS and len(big) == DRAWS
        exact, _ = scaling.linear_regression_noise_scales(problem.cov, w - problem.w_star, problem.noise_std)
        out[fraction] = (scaling.b_simple(small, big, PER_REPLICA, PER_REPLICA * REPLICAS), exact)
    return out


def test_replica_estimate_matches_the_closed_form_within_ten_percent(estimates):
    for estimate, exact in estimates.values():
        assert estimate == pytest.approx(exact, rel=0.10)


def test_noise_scale_rises_as_training_proceeds(estimates):
    assert estimates[0.7][0] > 2 * estimates[0.0][0]
