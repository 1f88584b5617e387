"""SlurmClusterResolver on sim.tf against TensorFlow 2.21's, given the same Slurm environments.

Run from .venv-tf (``make test-tf``). slurm_probe.py runs every case once per framework, each in
its own process; the two records must be equal case by case: cluster, task type and index
(before and after cluster_spec()), CUDA_VISIBLE_DEVICES, master(), num_accelerators(), and
for the error cases the exception's class and its text.
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
sys.path.insert(0, str(HERE))
from slurm_probe import CASES  # noqa: E402

pytest.importorskip("tensorflow")


def _records(framework):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="2", SIM_LANG="en")
    out = subprocess.run([sys.executable, str(HERE / "slurm_probe.py"), framework], env=env,
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    lines = [x for x in out.stdout.splitlines() if x.startswith("SLURM-JSON ")]
    assert lines, f"{framework} printed no SLURM-JSON line:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    return json.loads(lines[-1].split(" ", 1)[1])


@pytest.fixture(scope="module")
def records():
    return _records("tf"), _records("sim")


@pytest.mark.parametrize("case", sorted(CASES))
def test_sim_resolves_as_tensorflow_does(records, case):
    tf_record, sim_record = records
    assert sim_record[case] == tf_record[case]


def test_the_cases_reach_both_the_cluster_and_the_errors(records):
    tf_record, _ = records
    errors = {name for name, r in tf_record.items() if "error" in r}
    assert {"no_procid", "unclosed_bracket", "more_gpus_than_the_node", "no_gpus"} <= errors
    assert tf_record["two_nodes_four_gpus_rank3"]["cluster"] == {
        "worker": [f"n0{n}:{8888 + p}" for n in (1, 2) for p in range(4)]}
    assert tf_record["two_nodes_four_gpus_rank3"]["cuda_visible_devices"] == "3"
