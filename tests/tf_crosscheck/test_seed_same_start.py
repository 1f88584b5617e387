"""The seed chapter's MWMS script (tests/seed_scripts/seed002_mwms_mnist.py, unedited but for its
imports) as a 2-worker cluster on both engines, from the same start (SIM_SAME_START,
sim/launch/same_start.py): the simulated launch records the initial weights, the TensorFlow
launch (``--engine tensorflow``) replays them; both train on the first 512 digits of the course's
MNIST subset in the subset's order, 4 steps of 128 per epoch, the script's 3 epochs.

Tolerances (float32, stated): the accuracy of each epoch equal to within one digit of the 512
(measured: equal); the loss of each epoch to LOSS_RTOL relative (measured: 3.3e-6 after 12 Adam
steps, where the engines' convolution and all-reduce sum in different orders).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEED = ROOT / "tests" / "seed_scripts" / "seed002_mwms_mnist.py"
SAMPLES = 512
LOSS_RTOL = 1e-4
ACCURACY_ATOL = 1 / SAMPLES

tf = pytest.importorskip("tensorflow")


def launch_seed(engine, weights):
    cmd = [sys.executable, "-m", "sim", "launch", "--workers", "2"]
    cmd += ["--gpus-per-worker", "1"] if engine == "sim" else ["--engine", "tensorflow", "--python", sys.executable]
    env = dict(os.environ, PYTHONPATH=str(ROOT), SIM_LANG="en", TF_CPP_MIN_LOG_LEVEL="2",
               SIM_SAME_START=str(weights), SIM_SAME_START_SAMPLES=str(SAMPLES))
    p = subprocess.run(cmd + [str(SEED)], env=env, cwd=str(weights.parent), capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    histories = {}
    for line in p.stdout.splitlines():
        if line.startswith("[worker ") and "SAME-START-HISTORY " in line:
            histories[int(line[len("[worker "):line.index("]")])] = json.loads(line.split("SAME-START-HISTORY ", 1)[1])
    assert sorted(histories) == [0, 1], p.stdout[-3000:]
    assert "Training complete." in p.stdout
    return histories


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    weights = tmp_path_factory.mktemp("same_start") / "seed002_start.npz"
    sim_runs = launch_seed("sim", weights)           # records the start
    assert weights.exists()
    return sim_runs, launch_seed("tensorflow", weights)


def test_each_engine_keeps_its_two_workers_identical(runs):
    for histories in runs:
        assert histories[0] == histories[1]


def test_the_seed_script_ends_with_the_same_accuracy_on_both_engines(runs):
    sim_h, tf_h = runs[0][0], runs[1][0]
    assert len(sim_h["accuracy"]) == len(tf_h["accuracy"]) == 3          # the script's 3 epochs
    for epoch, (a, b) in enumerate(zip(sim_h["accuracy"], tf_h["accuracy"]), 1):
        assert abs(a - b) <= ACCURACY_ATOL, f"epoch {epoch}: accuracy sim {a} tensorflow {b}"
    for epoch, (a, b) in enumerate(zip(sim_h["loss"], tf_h["loss"]), 1):
        assert abs(a - b) <= LOSS_RTOL * abs(b), f"epoch {epoch}: loss sim {a} tensorflow {b}"
    worst = max(abs(a - b) / abs(b) for a, b in zip(sim_h["loss"], tf_h["loss"]))
    print(f"final accuracy sim {sim_h['accuracy'][-1]} tensorflow {tf_h['accuracy'][-1]}; "
          f"max relative loss difference {worst:.2g}")


def test_the_run_trained(runs):
    """Guard: agreement must come from training, not from two runs that did nothing."""
    history = runs[1][0]
    assert history["loss"][-1] < 0.8 * history["loss"][0]
    assert history["accuracy"][-1] > 0.5
