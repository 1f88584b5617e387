"""sim.plan.asynchrony: the derivation against hand computation, and against lesson 07's simulated
parameter servers (sim.scaling.staleness_regimes) at large rates, where they diverge."""
import math

import numpy as np
import pytest

from sim.des import ComputeTime
from sim.plan.asynchrony import async_cost, implicit_momentum, measured_staleness, stable_product
from sim.plan.recipes import RECIPES
from sim.scaling.problems import StreamingRegression
from sim.scaling.staleness_regimes import run_async

GOYAL = RECIPES["goyal-sgd"]


def test_measured_staleness_is_n_minus_1_and_the_bound_is_lesson_07s():
    for n in (2, 8, 64):
        assert measured_staleness(n) == pytest.approx(n - 1)
    assert measured_staleness(8, exponential=1.0) == pytest.approx(7, rel=0.05)   # any distribution
    for tau in (0, 1, 2, 7, 15):                    # Levin & May: 2 sin(pi / (2 (2 tau + 1)))
        assert stable_product(tau) == pytest.approx(2 * math.sin(math.pi / (2 * (2 * tau + 1))))
    assert stable_product(0, 0.9) == pytest.approx(3.8)         # heavy ball: 2 (1 + mu)
    # momentum and delay together, numerically: below the momentum-free bound, above 0
    assert 0 < stable_product(7, 0.3) < stable_product(7)
    assert implicit_momentum(255) == pytest.approx(1 - 1 / 256)  # Mitliagkas et al.: 1 - 1/N


def test_the_derivation_by_hand_for_32_workers():
    c = async_cost(GOYAL, 32, 32)           # batch 1,024 equivalent, tau = 31, mu_a = 31/32 > 0.9
    assert c.tau == pytest.approx(31) and c.explicit == 0
    want = 0.1 * 1024 / 256 / (32 * (1 - 0.9))                  # eta(N b) / (N (1 - mu_r)) = 0.125
    stable = 2 * math.sin(math.pi / 126) / (2 * 1.9 / 6.4)      # edge 6.4 = Goyal's rate at 16k
    assert c.want == pytest.approx(want) and c.stable == pytest.approx(stable)
    assert c.updates == pytest.approx(32 * GOYAL.steps(1024) * want / stable)
    assert c.status == "extrapolated" and c.learning_rate == pytest.approx(stable)


def test_async_steps_grow_with_workers_and_stop_past_the_recipe():
    slow = [async_cost(GOYAL, n, 32).slowdown for n in (4, 16, 64, 256)]
    assert slow[0] == 1.0 and all(a < b for a, b in zip(slow[1:], slow[2:])) and slow[-1] > 10
    assert async_cost(GOYAL, 256, 64).status == "not reached"   # equivalent batch 16k: no published run


@pytest.mark.parametrize("workers", [4, 8])
def test_lesson_07s_runs_converge_below_the_derived_rate_and_diverge_above(workers):
    """Constant compute times (tau = N - 1 exactly), the regression's lambda_max = 1, momentum 0."""
    tau = measured_staleness(workers)
    edge = stable_product(tau)                                 # eta_s x lambda_max
    problem = StreamingRegression(seed=0)
    run = run_async(problem, workers, ComputeTime(fixed=1.0), updates=3000,
                    lr=[0.8 * edge, 1.3 * edge], batch=32, seed=0)
    assert not run.diverged[0] and np.isfinite(run.final_loss()[0])
    assert run.diverged[1]


def test_random_staleness_is_gentler_so_the_derived_rate_is_safe():
    problem = StreamingRegression(seed=0)
    tau = measured_staleness(8, exponential=1.0)
    run = run_async(problem, 8, ComputeTime(fixed=1.0, exponential=1.0), updates=3000,
                    lr=[0.95 * stable_product(tau)], batch=32, seed=1)
    assert not run.diverged[0]


def test_sync_wins_past_a_few_dozen_workers_on_a_fast_network_async_can_win_on_a_slow_one():
    """Chen et al. 2016's direction: the plan, ResNet-50 with Goyal's recipe, 64 images per GPU."""
    from sim.plan import grid, make_plan
    def hours(net, nodes, strategy):
        c = grid(("dgx1-p100",), (nodes,), (net,), strategies=(strategy,), batch_per_device=(64,))
        return make_plan("resnet50", GOYAL, c, 2.0).rows[0].hours
    for nodes in (4, 8, 16):                                    # 32 to 128 workers on InfiniBand
        assert hours("edr-ib", nodes, "mirrored-nccl") < hours("edr-ib", nodes, "ps-async") / 2
    assert hours("10gbe", 2, "ps-async") < hours("10gbe", 2, "ps-sync")   # 16 workers, 10 GbE
