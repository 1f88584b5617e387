"""``python -m sim launch --emit slurm|ssh``: the files, their bad options, and that they train.

The sbatch script runs under the local stand-ins of sim.launch.local_cluster: a one-node
allocation of this machine, a stand-in srun giving each task the SLURM_* variables of a real
step, the emitted slurm_tf_config.py asking SlurmClusterResolver for TF_CONFIG, then the script
(engine "sim": ``import tensorflow`` is the simulator). start_on_nodes.sh runs with a stand-in
ssh. Real TensorFlow runs the same in tests/tf_crosscheck/test_cluster_files.py.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim import i18n
from sim.cli import launch as cli
from sim.launch import emit, local_cluster

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "launch_scripts" / "cluster_files" / "train.py"
EXPECTED_LOSS = "LOSS 8.29863 1.37948 0.35208"      # what the first run printed on both engines


@pytest.fixture
def job(tmp_path, monkeypatch):
    shutil.copy(SCRIPT, tmp_path / "train.py")
    monkeypatch.chdir(tmp_path)
    i18n.set_language("en")
    yield tmp_path
    i18n.set_language("en")


BAD = [
    ([], "--emit needs what to write"),
    (["--emit", "pbs", "train.py"], "not a kind of cluster"),
    (["--emit", "slurm", "--nodes", "zero", "train.py"], "--nodes needs a whole number of at least 1"),
    (["--emit", "slurm", "--nodes", "0", "train.py"], "--nodes needs a whole number of at least 1"),
    (["--emit", "slurm", "--nodes"], "--nodes needs a value"),
    (["--emit", "slurm", "--gpus-per-node", "4", "--tasks-per-node", "3", "train.py"], "cannot be shared evenly"),
    (["--emit", "slurm", "--gpus-per-node", "2", "--tasks-per-node", "4", "train.py"], "cannot be shared evenly"),
    (["--emit", "slurm", "--hosts", "a,b", "train.py"], "--hosts means nothing for --emit slurm"),
    (["--emit", "ssh", "train.py"], "--emit ssh needs the nodes' addresses"),
    (["--emit", "ssh", "--hosts", "a,,b", "train.py"], "empty or spaced name"),
    (["--emit", "kubernetes", "--time", "01:00:00", "train.py"], "--time means nothing for --emit kubernetes"),
    (["--emit", "kubernetes", "--name", "My_Job", "train.py"], "cannot name a Kubernetes job"),
    (["--emit", "kubernetes", "--pvc", "training", "train.py"], "needs CLAIM:/MOUNT"),
    (["--emit", "slurm", "--mem", "32GB", "train.py"], "is not a size"),
    (["--emit", "slurm", "--time", "2h", "train.py"], "is not a time limit"),
    (["--emit", "slurm", "--port", "65535", "--tasks-per-node", "2", "train.py"], "leaves no room"),
    (["--emit", "slurm", "--nodes", "1", "--chief", "train.py"], "needs at least 2 tasks"),
    (["--emit", "slurm", "--nodes", "5000", "train.py"], "more than the 4096"),
    (["--emit", "slurm", "--frobnicate", "train.py"], "unknown option '--frobnicate' for --emit slurm"),
    (["--emit", "slurm"], "no script to write"),
    (["--emit", "slurm", "missing.py"], "does not exist"),
    (["--emit", "kubernetes", "--image", " ", "train.py"], "--image needs a value on one line"),
]


@pytest.mark.parametrize("argv, words", BAD, ids=[" ".join(a) or "nothing" for a, _ in BAD])
def test_every_bad_option_is_one_line_and_exit_2(job, capsys, argv, words):
    assert cli.main(argv or ["--emit"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("python -m sim launch: ") and words in err, err
    assert not list(job.glob("*.sbatch")) and not list(job.glob("*.yaml"))


def test_a_bad_option_speaks_the_course_language_from_the_command_line(job):
    env = dict(os.environ, SIM_LANG="zh", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "sim", "launch", "--emit", "slurm", "--gpus-per-node",
                          "4", "--tasks-per-node", "3", "train.py"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "无法平均分给" in out.stderr, out.stderr


def test_the_sbatch_script_asks_for_the_allocation_and_starts_one_task_per_worker(job):
    paths = emit.emit(["slurm", "--nodes", "2", "--gpus-per-node", "4", "--cpus-per-task", "8",
                       "--mem", "32G", "--time", "02:00:00", "train.py", "--epochs", "3"])
    assert [Path(p).name for p in paths] == ["train.sbatch", "slurm_tf_config.py"]
    text = (job / "train.sbatch").read_text()
    found = local_cluster.directives(text)
    assert found["nodes"] == "2" and found["ntasks-per-node"] == "4" and found["gpus-per-node"] == "4"
    assert (found["cpus-per-task"], found["mem"], found["time"]) == ("8", "32G", "02:00:00")
    assert "requeue" in found
    assert text.splitlines()[-1] == ("srun --kill-on-bad-exit=1 python3 slurm_tf_config.py python3 "
                                     "train.py --epochs 3")
    assert os.access(job / "train.sbatch", os.X_OK)
    compile((job / "slurm_tf_config.py").read_text(), "slurm_tf_config.py", "exec")


def _trained(lines, count):
    by_task = local_cluster.task_lines(lines)
    done = {k: [x for x in v if x.startswith("TASK ")] for k, v in by_task.items()}
    assert sorted(done) == list(range(count)), lines[-40:]
    return {k: v[0] for k, v in done.items()}


@pytest.mark.slow
def test_the_sbatch_script_trains_under_the_local_srun(job):
    emit.emit(["slurm", "--nodes", "1", "--tasks-per-node", "2", "train.py"])
    status, lines = local_cluster.sbatch("train.sbatch", timeout=300, echo=False)
    assert status == 0, lines[-40:]
    done = _trained(lines, 2)
    assert done == {k: f"TASK worker {k} GPUS - {EXPECTED_LOSS}" for k in (0, 1)}
    said = {k: v[0] for k, v in local_cluster.task_lines(lines).items()}
    ports = [int(re.search(r"localhost:(\d+)", said[k]).group(1)) for k in (0, 1)]
    assert ports[1] == ports[0] + 1            # one port per task of the node, from PORT_BASE


@pytest.mark.slow
def test_gpu_nodes_give_each_task_its_own_gpus_and_a_chief(job):
    """2 nodes x 2 GPUs, run on one local node of 4 GPUs: task k gets GPU k; rank 0 is the chief."""
    emit.emit(["slurm", "--nodes", "2", "--gpus-per-node", "2", "--chief", "train.py"])
    status, lines = local_cluster.sbatch("train.sbatch", timeout=300, echo=False)
    assert status == 0, lines[-40:]
    done = _trained(lines, 4)
    assert done[0] == f"TASK chief 0 GPUS 0 {EXPECTED_LOSS}"
    assert [done[k] for k in (1, 2, 3)] == [f"TASK worker {k - 1} GPUS {k} {EXPECTED_LOSS}" for k in (1, 2, 3)]


@pytest.mark.slow
def test_a_failing_task_stops_the_step(job):
    (job / "train.py").write_text("import os, sys, time\n"
                                  "sys.exit(3) if os.environ['SLURM_PROCID'] == '1' else time.sleep(60)\n")
    emit.emit(["slurm", "--nodes", "1", "--tasks-per-node", "2", "train.py"])
    status, lines = local_cluster.sbatch("train.sbatch", timeout=120, echo=False)
    assert status == 3, lines


def test_the_ssh_commands_are_the_seeds_lines(job):
    emit.emit(["ssh", "--hosts", "10.1.10.58,10.1.10.250", "--python", "python", "train.py"])
    text = (job / "start_on_nodes.sh").read_text()
    seed = ["""TF_CONFIG='{"cluster": {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}, "task": {"index": %d, "type": "worker"}}' python train.py""" % k
            for k in (0, 1)]
    import shlex
    for k, host in enumerate(("10.1.10.58", "10.1.10.250")):
        assert f"ssh -n {host} {shlex.quote(seed[k])} & pids+=($!)" in text


@pytest.mark.slow
def test_the_ssh_commands_train_here(job):
    base = local_cluster.consecutive_free_ports(2)
    emit.emit(["ssh", "--hosts", "localhost,127.0.0.1", "--port", str(base), "train.py"])
    status, lines = local_cluster.ssh_script("start_on_nodes.sh", timeout=300, echo=False)
    assert status == 0, lines[-40:]
    done = sorted(line for _, line in lines if line.startswith("TASK "))
    assert done == [f"TASK worker {k} GPUS - {EXPECTED_LOSS}" for k in (0, 1)]


def test_the_ssh_stand_in_refuses_other_machines(capsys):
    assert local_cluster.ssh_main(["-n", "10.1.10.58", "true"]) == 255


def test_emit_may_come_after_other_options(job, capsys):
    assert cli.main(["--nodes", "3", "--emit", "slurm", "train.py"]) == 0
    assert local_cluster.directives((job / "train.sbatch").read_text())["nodes"] == "3"
    assert cli.main(["--emit=ssh", "--hosts", "a,b", "train.py"]) == 0
    assert "wrote " in capsys.readouterr().out
