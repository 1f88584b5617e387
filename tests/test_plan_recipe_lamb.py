"""The LAMB recipe (mlperf-lamb): MLPerf's BERT reference convergence points, in training
sequences, by hand; the names a learner types first; the model it belongs to; the CLI."""
import json
import math
import os
import subprocess
import sys

import pytest

from sim.plan import Candidate, StepTime, grid, make_plan, plan_row
from sim.plan.recipes import RCPS_BERT, RECIPES, recipe

LAMB = RECIPES["mlperf-lamb"]


def test_points_are_the_rcp_medians_in_sequences():
    assert [(p.batch, p.epochs) for p in LAMB.points] == [(b, n) for b, n, *_ in RCPS_BERT]
    assert LAMB.unit == "samples" and LAMB.examples == 1 and LAMB.model == "bert_large_512"
    # rcps_bert.json bert_ref_4608: median 2,810,880 sequences, base rate 0.0035, beta_1 0.62
    assert LAMB.status(4608) == "published" and LAMB.epochs(4608) == 2_810_880
    assert LAMB.steps(4608) == math.ceil(2_810_880 / 4608) == 610
    assert LAMB.learning_rate(4608) == pytest.approx(0.0035) and LAMB.momentum(4608) == pytest.approx(0.62)
    assert LAMB.warmup_steps(8192) == 287 and LAMB.warmup_steps(4608) == 0     # bert_ref_8192's 287


def test_between_points_is_interpolated_in_log_batch():
    w = math.log(768 / 448) / math.log(1536 / 448)
    want = 2_408_448 + w * (2_789_376 - 2_408_448)
    assert LAMB.status(768) == "interpolated" and LAMB.epochs(768) == pytest.approx(want)
    assert LAMB.steps(768) == math.ceil(want / 768)
    # the RCPs are not monotone (448 needs fewer sequences than 256): the data is kept as published
    assert LAMB.epochs(300) < LAMB.epochs(256)


def test_below_is_extrapolated_and_past_16k_is_not_reached():
    assert LAMB.status(128) == "extrapolated" and LAMB.epochs(128) == 2_546_432
    assert LAMB.steps(128) == math.ceil(2_546_432 / 128)
    assert LAMB.status(16384) == "published" and LAMB.status(16385) == "not reached"
    assert LAMB.steps(32768) == math.inf


@pytest.mark.parametrize("typed", ["mlperf-lamb", "lamb", "LAMB", " Lamb ", "MLPERF_LAMB", "bert"])
def test_a_learners_first_guess_works(typed):
    assert recipe(typed) is LAMB


def test_other_recipes_by_a_unique_part_and_the_mistakes_name_what_to_type():
    assert recipe("LARS") is RECIPES["mlperf-lars"] and recipe("goyal") is RECIPES["goyal-sgd"]
    with pytest.raises(ValueError, match=r"'mlperf'.*mlperf-lars.*mlperf-lamb.*--recipe mlperf-lamb"):
        recipe("mlperf")
    with pytest.raises(ValueError, match=r"'adam'.*did you mean mlperf-lamb"):
        recipe("adam")
    with pytest.raises(ValueError, match=r"'lamm'.*did you mean mlperf-lamb"):
        recipe("lamm")
    with pytest.raises(ValueError, match=r"choose among goyal-sgd, mlperf-lars, mlperf-lamb\.$"):
        recipe("rmsprop")


def test_a_recipe_refuses_another_model():
    cands = grid(("dgx-h100",), (1,), strategies=("mirrored-nccl",), batch_per_device=(96,))
    with pytest.raises(ValueError, match="bert_large_512, not resnet50"):
        make_plan("resnet50", "lamb", cands, 1.0)
    with pytest.raises(ValueError, match="resnet50, not bert_large_512"):
        make_plan("bert_large_512", "goyal-sgd", cands, 1.0)


def test_plan_rows_budget_in_sequences_and_asynchrony_refused():
    c = Candidate("dgx-h100", 8, "ndr-ib", 8, "mirrored-nccl", 72)                # 4,608 sequences
    step = StepTime(0.1, 0.08, 0.02, "simulated")
    row = plan_row(c, LAMB, step, 1.0)
    assert row.steps == 610 and row.seconds == pytest.approx(61.0) and row.status == "published"
    short = plan_row(c, LAMB, step, 1.0, epochs=2_700_000)                       # < 2,810,880
    assert not short.reaches and short.status == "not reached"
    long = plan_row(c, LAMB, step, 1.0, epochs=3_000_000)
    assert long.reaches and long.steps == math.ceil(3_000_000 / 4608)
    assert long.epochs == 652 * 4608 == 3_004_416              # whole steps of the budget
    a = plan_row(Candidate("dgx-h100", 8, "ndr-ib", 8, "ps-async", 72, 8), LAMB, step, 1.0)
    assert not a.reaches and a.status == "not reached"


def _cli(*argv, lang="en"):
    env = {**os.environ, "SIM_LANG": lang}
    return subprocess.run([sys.executable, "-m", "sim", "plan", *argv], capture_output=True, text=True,
                          timeout=120, env=env)


def test_cli_lamb_picks_its_model_and_marks_rows():
    run = _cli("--recipe", "LAMB", "--machines", "dgx-h100", "--nodes", "1", "--strategies",
               "mirrored-nccl", "--batch-per-device", "8,96,4096", "--precision", "mixed_float16", "--json")
    assert run.returncode == 0, run.stderr
    rows = {r["update_batch"]: r for r in json.loads(run.stdout)}
    assert rows[768]["status"] == "interpolated" and rows[768]["steps"] == LAMB.steps(768)
    assert rows[64]["status"] == "extrapolated"
    assert rows[32768]["status"] == "not reached" and rows[32768]["seconds"] is None
    run = _cli("--model", "bert_large_512", "--machines", "dgx-h100", "--nodes", "1", "--strategies",
               "mirrored-nccl", "--batch-per-device", "96", "--epochs", "2000000")
    assert run.returncode == 0 and "bert_large_512 to masked-LM accuracy 72.0%" in run.stdout
    assert "2,000,000 training sequences" in run.stdout and "rcps_bert.json" in run.stdout


@pytest.mark.parametrize("lang,word", [("en", "error"), ("zh", "错误"), ("pt", "erro")])
def test_cli_mistakes_are_one_line_exit_2_in_each_language(lang, word):
    for argv, says in ((("--recipe", "mlperf"), "mlperf-lamb"), (("--recipe", "adam"), "mlperf-lamb"),
                       (("--recipe", "lamb", "--model", "resnet50"), "--model bert_large_512")):
        run = _cli(*argv, "--nodes", "1", lang=lang)
        assert run.returncode == 2 and run.stdout == "", run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
        assert word in run.stderr and says in run.stderr
