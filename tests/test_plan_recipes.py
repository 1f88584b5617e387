"""sim.plan.recipes: a recipe's steps are its published epochs, by hand; past its largest batch
the plan says "not reached", between published batches "interpolated"."""
import math

import pytest

from sim.plan.recipes import IMAGENET_EXAMPLES, RCPS_RESNET, RECIPES, recipe

GOYAL, LARS = RECIPES["goyal-sgd"], RECIPES["mlperf-lars"]


def test_goyal_trains_every_batch_to_8k_in_90_epochs():
    for batch in (256, 1024, 8192):
        assert GOYAL.epochs(batch) == 90 and GOYAL.status(batch) == "published"
    assert GOYAL.steps(8192) == math.ceil(90 * IMAGENET_EXAMPLES / 8192) == 14076   # the paper's 14k
    assert GOYAL.steps(256) == 450411
    assert GOYAL.learning_rate(8192) == pytest.approx(3.2)         # 0.1 x 8192 / 256
    assert GOYAL.warmup_steps(256) == 0 and GOYAL.warmup_epochs(8192) == 5   # no warmup at k = 1


def test_past_the_largest_published_batch_is_not_reached():
    assert GOYAL.status(16384) == "not reached" and GOYAL.steps(16384) == math.inf
    assert LARS.status(67840) == "published" and LARS.status(131072) == "not reached"


def test_lars_is_the_mlperf_rcp_medians_and_interpolates_in_log_batch():
    assert [(p.batch, p.epochs) for p in LARS.points] == [(b, e) for b, e, *_ in RCPS_RESNET]
    assert LARS.epochs(32768) == 56 and LARS.momentum(32768) == pytest.approx(0.94)
    mid = 8192 * 2 ** 0.5 / 1.0                                    # halfway between 8192 and 16384 in log
    lo, hi = 8192, 13056
    w = math.log(mid / lo) / math.log(hi / lo)
    assert LARS.epochs(mid) == pytest.approx(42 + w * (45.5 - 42)) and LARS.status(int(mid)) == "interpolated"
    assert LARS.status(1024) == "extrapolated" and LARS.epochs(1024) == 35
    # far fewer epochs than Goyal's 90 at 8k: the recipe, not the batch, decides
    assert LARS.epochs(8192) < GOYAL.epochs(8192) / 2


def test_budget_and_unknown_recipe():
    assert LARS.budget_reaches(4096, 40) and not LARS.budget_reaches(8192, 40)
    with pytest.raises(ValueError, match="goyal-sgd"):
        recipe("adam")


def test_plan_with_a_budget_marks_the_rows_that_miss():
    from sim.plan import Candidate, StepTime, plan_row
    c = Candidate("dgx1-p100", 16, "edr-ib", 8, "mirrored-nccl", 64)         # 8,192: 42 epochs
    row = plan_row(c, LARS, StepTime(0.3, 0.2, 0.1, "simulated"), 1.0, epochs=45)
    assert row.reaches and row.steps == math.ceil(45 * IMAGENET_EXAMPLES / 8192)
    assert row.epochs == pytest.approx(45, abs=0.01)
    assert not plan_row(c, LARS, StepTime(0.3, 0.2, 0.1, "simulated"), 1.0, epochs=40).reaches
