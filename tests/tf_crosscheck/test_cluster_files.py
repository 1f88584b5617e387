"""The files ``--emit`` writes, run on real TensorFlow 2.21 and on sim.tf: the same losses.

Run from .venv-tf (``make test-tf``). The sbatch script runs under the local srun stand-in
(sim.launch.local_cluster), the TFJob's TF_CONFIGs (the operator's, addresses made loopback)
as local processes; each once with TensorFlow (``python`` = this venv's, tf.keras 2 as in
test_engines.py) and once with the simulator under the course's own venv (SIM_PYTHON, default
.venv/bin/python). Every task of both runs must print the same losses to 1e-5.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from sim.launch import emit, emit_kubernetes, local_cluster

pytest.importorskip("tensorflow")
ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "launch_scripts" / "cluster_files" / "train.py"
SIM_PYTHON = os.environ.get("SIM_PYTHON", str(ROOT / ".venv" / "bin" / "python"))
TF_ENV = {"TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONPATH": str(ROOT)}


def _losses(lines):
    out = {}
    for _, line in lines:
        text = line.partition(": ")[2] if line[:1].isdigit() else line
        if text.startswith("TASK "):
            words = text.split()
            out[(words[1], int(words[2]))] = [float(x) for x in words[words.index("LOSS") + 1:]]
    return out


def _same(a, b):
    assert sorted(a) == sorted(b) and a, (a, b)
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=1e-5, abs=1e-5), key


@pytest.fixture
def job(tmp_path, monkeypatch):
    shutil.copy(SCRIPT, tmp_path / "train.py")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("args", [["--nodes", "1", "--tasks-per-node", "2"],
                                  ["--nodes", "2", "--chief"]], ids=["two_workers", "chief_and_worker"])
def test_the_sbatch_script_trains_on_tensorflow_as_on_sim(job, args):
    emit.emit(["slurm", *args, "train.py"])
    tf_status, tf_lines = local_cluster.sbatch("train.sbatch", python=sys.executable,
                                               engine="tensorflow", timeout=400, echo=False, env=TF_ENV)
    assert tf_status == 0, tf_lines[-40:]
    sim_status, sim_lines = local_cluster.sbatch("train.sbatch", python=SIM_PYTHON, engine="sim",
                                                 timeout=400, echo=False)
    assert sim_status == 0, sim_lines[-40:]
    _same(_losses(tf_lines), _losses(sim_lines))


def test_the_tfjob_tf_configs_train_on_tensorflow_as_on_sim(job):
    args = ["kubernetes", "--nodes", "2", "--chief", "train.py"]
    emit.emit(args)         # the YAML reads back as this dict (tests/test_launch_emit_kubernetes.py)
    manifest = emit_kubernetes.manifest(emit.contents(args)[0])
    command = manifest["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["command"]
    configs = local_cluster.loopback_configs(list(emit_kubernetes.operator_tf_configs(manifest).values()))
    assert all(json.loads(c)["environment"] == "cloud" for c in configs)
    runs = []
    for python, engine, env in ((sys.executable, "tensorflow", TF_ENV), (SIM_PYTHON, "sim", None)):
        status, lines = local_cluster.tf_configs(configs, command, cwd=str(job), python=python,
                                                 engine=engine, timeout=400, echo=False, env=env)
        assert status == 0, lines[-40:]
        runs.append(_losses(lines))
    _same(*runs)
