"""sim.plan.stragglers: order statistics against the harmonic-number closed forms, and against
lesson 07's simulated synchronous steps with backup workers (E6)."""
import pytest

from sim.des import ComputeTime
from sim.plan import Candidate, StepTime
from sim.plan.stragglers import NONE, async_factor, harmonic, sync_factor
from sim.scaling.staleness_regimes import run_sync

SHIFTED = ComputeTime(fixed=1.0, exponential=1.0)
MIXTURE = ComputeTime(fixed=1.0, slow=10.0, slow_prob=0.05, exponential=0.1)


def test_closed_forms():
    assert sync_factor(SHIFTED, 8) == pytest.approx(1 + harmonic(8))          # 3.72
    assert sync_factor(SHIFTED, 8, 2) == pytest.approx(1 + harmonic(10) - harmonic(2))   # 2.43
    assert sync_factor(SHIFTED, 100, 4) == pytest.approx(1 + harmonic(104) - harmonic(4))
    assert sync_factor(NONE, 256) == 1.0 and async_factor(SHIFTED) == 2.0


@pytest.mark.parametrize("compute,backups", [(SHIFTED, 0), (SHIFTED, 2), (MIXTURE, 0), (MIXTURE, 2)])
def test_against_lesson_07s_simulated_sync_steps(compute, backups):
    from sim.scaling.problems import StreamingRegression
    run = run_sync(StreamingRegression(seed=0), 8, compute, until=4000, lr=0.1, backups=backups, seed=0)
    measured = 4000 / len(run.time)
    assert measured == pytest.approx(sync_factor(compute, 8, backups), rel=0.05)


def test_backups_rescue_the_rare_straggler_and_enter_the_plan():
    assert sync_factor(MIXTURE, 8, 2) < 0.5 * sync_factor(MIXTURE, 8)
    from sim.plan import model_step
    c = Candidate("dgx1-p100", 1, None, 8, "ps-sync", 64, 1, 2)
    base = model_step("resnet50", c)
    slow = model_step("resnet50", c, stragglers=MIXTURE)
    assert slow.seconds == pytest.approx(base.seconds + base.compute * (sync_factor(MIXTURE, 6, 2) - 1))
    assert c.workers == 6 and c.update_batch == 6 * 64
