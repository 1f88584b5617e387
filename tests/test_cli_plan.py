"""python -m sim plan: the rows of sim.plan, budget and deadline, and one clear line with exit
status 2 for every bad argument (in the course language)."""
import json
import subprocess
import sys

import pytest

from sim.cli.plan import main
from sim.plan import grid, make_plan


def test_json_rows_are_the_python_plan(capsys):
    args = ["--nodes", "1,4", "--networks", "10gbe", "--strategies", "mirrored-nccl,ps-async",
            "--batch-per-device", "64", "--price", "2", "--json"]
    assert main(args) == 0
    rows = json.loads(capsys.readouterr().out)
    want = make_plan("resnet50", "goyal-sgd",
                     grid(("dgx1-p100",), (1, 4), ("10gbe",), strategies=("mirrored-nccl", "ps-async"),
                          batch_per_device=(64,)), 2.0).rows
    assert [(r["nodes"], r["strategy"]) for r in rows] == [(w.candidate.nodes, w.candidate.strategy) for w in want]
    assert [r["seconds"] for r in rows] == pytest.approx([w.seconds for w in want])
    assert [r["seconds"] for r in rows] == sorted(r["seconds"] for r in rows)
    assert all(r["cost"] == pytest.approx(r["seconds"] / 3600 * r["devices"] * 2) for r in rows)
    assert {r["tf_strategy"] for r in rows} == {"MirroredStrategy", "MultiWorkerMirroredStrategy",
                                               "ParameterServerStrategy"}


def test_list_flags_take_commas_or_spaces(capsys):
    commas = ["--nodes", "1,4", "--strategies", "mirrored-nccl,ps-async", "--batch-per-device", "64",
              "--json"]
    spaces = ["--nodes", "1", "4", "--strategies", "mirrored-nccl,", "ps-async", "--batch-per-device",
              "64", "--json"]
    assert main(commas) == 0
    want = json.loads(capsys.readouterr().out)
    assert main(spaces) == 0
    assert json.loads(capsys.readouterr().out) == want and {r["nodes"] for r in want} == {1, 4}


def test_budget_deadline_and_own_curve(capsys):
    assert main(["--nodes", "1,2,4", "--strategies", "mirrored-nccl", "--s-min", "1000",
                 "--b-crit", "512", "--target", "loss 0.1", "--budget", "1e9", "--deadline", "1e9"]) == 0
    out = capsys.readouterr().out
    assert "loss 0.1" in out and "3 of 6 plans" not in out and "budget 1,000,000,000, 1e+09 h: 6 of 6 plans" in out
    assert main(["--nodes", "1", "--strategies", "mirrored-nccl", "--budget", "0"]) == 0
    assert "No plan fits" in capsys.readouterr().out


BAD = [["--nodes", "0"], ["--nodes", "two"], ["--price", "-1"], ["--price", "nan"], ["--model", "nope"],
       ["--machines", "dgx9"], ["--networks", "5gbe"], ["--strategies", "mirrored"], ["--rank", "speed"],
       ["--gpus", "9"], ["--model", "vgg16"], ["--s-min", "100"], ["--top", "0"], ["--bogus"], ["--networks", ""], ["--machines", ","],
       ["--recipe", "adam"], ["--epochs", "0"], ["--epochs", "many"], ["--backups", "-1"], ["--backups", "8"],
       ["--recipe", "goyal-sgd", "--s-min", "10", "--b-crit", "10"], ["--s-min", "10", "--b-crit", "10", "--epochs", "5"]]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_flags_are_one_line_and_exit_2(argv):
    run = subprocess.run([sys.executable, "-m", "sim", "plan", *argv], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2, run.stderr
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
    assert run.stderr.startswith("python -m sim plan: error:") and "Traceback" not in run.stderr


def test_help_and_language():
    run = subprocess.run([sys.executable, "-m", "sim", "plan", "--help"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0 and "--budget" in run.stdout
    for flag in ("--recipe", "--epochs", "--backups", "goyal-sgd", "mlperf-lars", "mlperf-lamb", "SyncReplicasOptimizer"):
        assert flag in run.stdout
    env = {**__import__("os").environ, "SIM_LANG": "zh"}
    run = subprocess.run([sys.executable, "-m", "sim", "plan", "--nodes", "0"], capture_output=True,
                         text=True, timeout=60, env=env)
    assert run.returncode == 2 and "错误" in run.stderr
    run = subprocess.run([sys.executable, "-m", "sim"], capture_output=True, text=True, timeout=60)
    assert "plan" in run.stdout


def test_fixed_epoch_budget_says_which_reach_the_target(capsys):
    """--epochs 40 with LARS: batch 4,096 needs 40 epochs (reaches), 8,192 needs 42 (does not)."""
    assert main(["--recipe", "mlperf-lars", "--epochs", "40", "--nodes", "8,16", "--networks", "edr-ib",
                 "--strategies", "mirrored-nccl", "--batch-per-device", "64", "--json"]) == 0
    rows = {r["update_batch"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows[4096]["status"] == "published" and rows[4096]["epochs"] == pytest.approx(40, abs=0.01)
    assert rows[8192]["status"] == "not reached" and rows[8192]["seconds"] is None
