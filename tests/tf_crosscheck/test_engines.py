"""The same unedited scripts on both engines: sim.tf, and real TensorFlow through the launcher.

Run by ``make test-tf`` from .venv-tf (TensorFlow 2.21 + tf-keras + this project). Scripts live in
engine_scripts/ and are run unchanged: on sim as ``python script.py`` or ``python -m sim launch
--workers 2 --gpus-per-worker 1 script.py``; on TensorFlow under ``sim.launch.tf_task`` (which
makes ``import sim.tf`` give ``tensorflow``) or ``python -m sim launch --engine tensorflow``.
TensorFlow runs with TF_USE_LEGACY_KERAS=1: sim.keras follows tf.keras 2 (the tf-keras package).
On CPU a TensorFlow worker has one replica, so the simulated workers get one GPU each.

Tolerances (float32): a value computed the same way agrees to RTOL/ATOL of test_crosscheck.py;
after several training steps the engines sum replicas and batches in different orders and
rounding compounds, so TRAIN_RTOL/TRAIN_ATOL (measured: 8.9e-8 on the weights after 6 loop steps and 8 fit steps).
Integers, strings, shapes and error types exactly.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCRIPTS = HERE / "engine_scripts"
sys.path.insert(0, str(HERE))
from compare import differences  # noqa: E402

RTOL, ATOL = 1e-6, 1e-7
TRAIN_RTOL, TRAIN_ATOL = 1e-5, 1e-6

tf = pytest.importorskip("tensorflow")   # make test-tf's venv has it; say so rather than error


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="2",
               SIM_LANG="en")
    env.update(extra)
    return env


def _json(stdout, who):
    lines = [x for x in stdout.splitlines() if "ENGINE-JSON " in x]
    assert lines, f"{who} printed no ENGINE-JSON line:\n{stdout[-3000:]}"
    return [json.loads(x.split("ENGINE-JSON ", 1)[1]) for x in lines]


def run_single(script, engine):
    cmd = [sys.executable, str(SCRIPTS / script)] if engine == "sim" else \
          [sys.executable, "-m", "sim.launch.tf_task", str(SCRIPTS / script)]
    p = subprocess.run(cmd, env=_env(), cwd=str(SCRIPTS), capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return _json(p.stdout, engine)[0]


def run_cluster(script, engine, workers=2, sim_root=ROOT):
    """``python -m sim launch`` of ``script`` (with the sim package found in ``sim_root``);
    {worker index: its ENGINE-JSON}."""
    cmd = [sys.executable, "-m", "sim", "launch", "--workers", str(workers)]
    cmd += ["--gpus-per-worker", "1"] if engine == "sim" else ["--engine", "tensorflow", "--python", sys.executable]
    p = subprocess.run(cmd + [str(SCRIPTS / script)], env=_env(PYTHONPATH=str(sim_root)), cwd=str(SCRIPTS),
                       capture_output=True,
                       text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    tasks = "task" if workers == 1 else "tasks"
    assert f"launch finished: {workers} {tasks}, all exited with status 0" in p.stdout
    by_worker = {}
    for line in p.stdout.splitlines():
        if line.startswith("[worker ") and "ENGINE-JSON " in line:
            by_worker[int(line[len("[worker "):line.index("]")])] = json.loads(line.split("ENGINE-JSON ", 1)[1])
    assert sorted(by_worker) == list(range(workers)), p.stdout[-3000:]
    return by_worker


# ------------------------------------------------------------------ TF_CONFIG and ClusterSpec

# The malformed TF_CONFIGs, and the field sim's message must name (TensorFlow's own message is
# Python's, e.g. "invalid literal for int() with base 10: 'one'"; only the type is compared).
FIELD_NAMED = {("index_not_int", "task_id"): '["index"]', ("index_not_int", "master"): '["index"]'}


@pytest.fixture(scope="module")
def probes():
    return run_single("probe_tf_config.py", "sim"), run_single("probe_tf_config.py", "tf")


def test_resolver_fields_and_cluster_specs_agree(probes):
    sim_r, tf_r = probes
    assert sorted(sim_r) == sorted(tf_r)
    problems = []
    for name in sorted(tf_r):
        keys = tf_r[name] if isinstance(tf_r[name], dict) and "__error__" not in tf_r[name] else {None: None}
        for key in keys:
            a = sim_r[name] if key is None else sim_r[name].get(key)
            b = tf_r[name] if key is None else tf_r[name][key]
            compare_messages = (name, key) not in FIELD_NAMED
            problems += differences(a, b, RTOL, ATOL, f"{name}/{key}", messages=compare_messages)
    assert not problems, "\n".join(problems)


def test_malformed_tf_config_errors_keep_the_type_and_name_the_field(probes):
    sim_r, tf_r = probes
    for (name, key), field in FIELD_NAMED.items():
        assert tf_r[name][key]["__error__"] == sim_r[name][key]["__error__"]
        assert field in sim_r[name][key]["message"], sim_r[name][key]
    for name in ("not_json", "cluster_is_list", "job_is_string", "spec_bad_type", "spec_key_text"):
        row = tf_r[name]
        errors = [v for v in (row.values() if "__error__" not in row else [row]) if isinstance(v, dict) and "__error__" in v]
        assert errors, f"TensorFlow accepted {name}: the scenario no longer tests an error"


# ------------------------------------------------------------------ MWMS on 2 worker processes

@pytest.fixture(scope="module")
def clusters():
    return run_cluster("mwms_two_workers.py", "sim"), run_cluster("mwms_two_workers.py", "tf")


def test_every_worker_of_each_engine_ends_with_the_same_weights(clusters):
    for runs in clusters:
        for key in ("loop_weights", "fit_weights", "fit_history", "loop_losses"):
            assert not differences(runs[0][key], runs[1][key], 0, 0, key)


@pytest.mark.parametrize("key", ["task", "replicas", "split_AUTO", "split_DATA", "split_OFF", "split_FILE",
                                 "input_context", "from_function"])
def test_batch_splitting_per_worker_and_auto_shard_policies_agree(clusters, key):
    sim_runs, tf_runs = clusters
    for worker in (0, 1):
        problems = differences(sim_runs[worker].get(key), tf_runs[worker].get(key), 0, 0, f"worker {worker} {key}")
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", ["loop_losses", "loop_weights", "fit_history", "fit_weights"])
def test_training_on_two_workers_agrees_within_float32(clusters, key):
    sim_runs, tf_runs = clusters
    problems = differences(sim_runs[0][key], tf_runs[0][key], TRAIN_RTOL, TRAIN_ATOL, key)
    assert not problems, "\n".join(problems)


def test_training_moved_the_weights(clusters):
    """Guard: equal results must come from training, not from both engines doing nothing."""
    sim_runs, _ = clusters
    losses = sim_runs[0]["loop_losses"]
    assert losses[-1] < 0.9 * losses[0]
    assert sim_runs[0]["fit_history"]["loss"][1] < sim_runs[0]["fit_history"]["loss"][0]


def test_the_stated_training_tolerance_is_not_loose(clusters):
    """Record how close the engines came; the tolerance is at most 100x that and stays float32-tight."""
    sim_runs, tf_runs = clusters
    worst = 0.0
    for key in ("loop_weights", "fit_weights"):
        for a, b in zip(sim_runs[0][key], tf_runs[0][key]):
            worst = max(worst, float(np.max(np.abs(np.asarray(a) - np.asarray(b)))))
    print(f"max |sim - tf| over the trained weights: {worst:.3g}")
    assert worst <= TRAIN_ATOL and TRAIN_ATOL <= 1e-5


def test_a_legacy_save_resolves_accuracy_as_tf_keras_does():
    """model.save to a SavedModel directory or .h5 before any fit makes 'accuracy' categorical
    (tf-keras's try_build_compiled_arguments), in the model and the one loaded back; .keras, a
    fit first and a named metric keep sparse accuracy (sim/keras/saving/legacy_metrics.py)."""
    sim_run, tf_run = run_single("legacy_save_metrics.py", "sim"), \
        run_single("legacy_save_metrics.py", "tensorflow")
    assert sorted(sim_run) == sorted(tf_run)
    problems = [p for case in tf_run
                for p in differences(sim_run[case], tf_run[case], TRAIN_RTOL, TRAIN_ATOL, case)]
    assert not problems, "\n".join(problems)
    # the cases differ from each other, so agreeing is not trivial
    assert tf_run["dir"]["saved"]["accuracy"] != tf_run["keras"]["saved"]["accuracy"]


# ------------------------------------------------------------------ would it catch a fidelity bug?

WRONG_SPLIT = ("        s = -(-b // num_replicas)\n", "        s = -(-b // num_replicas) + 1   # the planted bug\n")


def test_a_wrong_batch_split_in_a_copy_of_sim_fails_the_suite(clusters, tmp_path):
    """Plant a bug (each global batch cut into slices one row too long) in a temporary copy of
    sim, run the same 2-worker launch on it, and show that this suite's own checks fail."""
    shutil.copytree(ROOT / "sim", tmp_path / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    rebatch = tmp_path / "sim" / "distribute" / "rebatch.py"
    text = rebatch.read_text()
    assert text.count(WRONG_SPLIT[0]) == 1, "legacy_split changed: update the planted bug"
    rebatch.write_text(text.replace(*WRONG_SPLIT))
    mutant = run_cluster("mwms_two_workers.py", "sim", sim_root=tmp_path)
    assert "+ 1   # the planted bug" not in (ROOT / "sim/distribute/rebatch.py").read_text()
    _, tf_runs = clusters
    for key in ("split_AUTO", "split_DATA"):
        with pytest.raises(AssertionError):
            test_batch_splitting_per_worker_and_auto_shard_policies_agree((mutant, tf_runs), key)
    with pytest.raises(AssertionError):
        test_training_on_two_workers_agrees_within_float32((mutant, tf_runs), "fit_history")
    # and the untouched parts still agree, so the failure is the split's
    test_batch_splitting_per_worker_and_auto_shard_policies_agree((mutant, tf_runs), "split_OFF")
