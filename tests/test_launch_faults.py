"""Faults: a failed task stops the cluster and is named; nothing outlives the launcher; a worker
killed at a chosen step, then the same command again, resumes with BackupAndRestore and ends
with the weights of an uninterrupted run."""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import sim.tf as tf
from sim.launch import launch

SCRIPTS = Path(__file__).with_name("launch_scripts")
sys.path.insert(0, str(SCRIPTS))
import mwms_fit  # noqa: E402


def _gone(pid):
    """True when ``pid`` no longer runs (absent, or a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _wait_gone(pids, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(_gone(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if not _gone(p)]


class _Lines:
    """A file-like echo target that collects the launcher's lines."""

    def __init__(self):
        self.lines, self.event = [], threading.Event()

    def write(self, text):
        self.lines.extend(text.splitlines())
        if sum("pids" in ln for ln in self.lines) >= 2:
            self.event.set()

    def flush(self):
        pass

    def pids(self):
        return [int(p) for ln in self.lines if "] pids " in ln for p in ln.split("pids ")[1].split()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_a_task_stops_the_others_and_leaves_no_process():
    out, box = _Lines(), {}
    t = threading.Thread(target=lambda: box.setdefault("r", launch(
        SCRIPTS / "sleeper.py", workers=2, echo=out, timeout=60)))
    t.start()
    assert out.event.wait(30), out.lines
    pids = out.pids()
    worker1 = next(int(ln.split()[3]) for ln in out.lines if ln.startswith("[worker 1] pids"))
    os.kill(worker1, signal.SIGKILL)
    t.join(30)
    result = box["r"]
    assert result.returncode == 1 and result.failed == "worker 1"
    assert "SIGKILL" in result.reason
    assert out.lines[-2] == "launch failed: worker 1: killed by signal SIGKILL"
    assert out.lines[-1] == "the other tasks were stopped: worker 0"
    assert len(pids) == 4 and _wait_gone(pids) == []


def test_a_task_that_raises_is_named_with_its_error():
    result = launch(SCRIPTS / "sleeper.py", ["raise"], workers=2, echo=False, timeout=60)
    assert result.failed == "worker 0"
    assert result.reason == "exited with status 1: ValueError: the learning rate is negative"
    assert result.task("worker", 1).returncode == -signal.SIGTERM
    assert _wait_gone([int(p) for p in result.output.split("pids ")[1].split()[:2]]) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stopping_the_launcher_stops_every_task(sig):
    proc = subprocess.Popen([sys.executable, "-m", "sim", "launch", "--workers", "2",
                             str(SCRIPTS / "sleeper.py")], stdout=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 30
        while sum("pids" in ln for ln in lines) < 2 and time.monotonic() < deadline:
            lines.append(proc.stdout.readline())
        pids = [int(p) for ln in lines if "pids" in ln for p in ln.split("pids ")[1].split()]
        proc.send_signal(sig)
        assert proc.wait(30) == 128 + sig      # 130 for Ctrl-C, 143 for SIGTERM
        assert "every task was stopped" in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert len(pids) == 4 and _wait_gone(pids) == []


def test_failure_then_resume_gives_the_uninterrupted_weights(tmp_path):
    """A chief and one worker, one GPU each: the chief keeps the backup, worker 0 fails."""
    env = {"BACKUP_DIR": str(tmp_path / "backup")}
    out = tmp_path / "run"
    cluster = dict(workers=1, chief=True, gpus_per_worker=1, env=env, echo=False, timeout=100)
    # 48 examples / global batch 8 = 6 steps per epoch: step 10 is in epoch 1, after epoch 0's backup
    failed = launch(SCRIPTS / "mwms_fit.py", [out], fail_at=("worker", 0, 10), **cluster)
    assert failed.returncode == 1 and failed.failed == "worker 0"
    assert failed.reason == "injected failure at step 10"
    assert "Collective ops is aborted by: worker 0 was stopped by the injected failure at step 10" \
        in failed.task("chief", 0).output
    assert (tmp_path / "backup" / "chief" / "ckpt.npz").exists()
    assert not (tmp_path / "backup" / "chief" / "workertemp_0").exists()

    resumed = launch(SCRIPTS / "mwms_fit.py", [out], **cluster)
    assert resumed.returncode == 0, resumed.output
    assert "[chief 0] done epochs 2" in resumed.output      # epochs 1 and 2: none lost or repeated
    assert not (tmp_path / "backup").exists()                 # the chief deleted its backup
    weights, losses = mwms_fit.fit_model(tf.distribute.get_strategy())
    for name in ("chief_0", "worker_0"):
        saved = np.load(f"{out}_{name}.npz")
        for i, w in enumerate(weights):
            np.testing.assert_allclose(saved[f"arr_{i}"], w, rtol=0, atol=1e-12)
        np.testing.assert_allclose(saved["losses"], losses[1:], rtol=0, atol=1e-12)



def test_a_worker_that_ends_early_does_not_leave_the_others_waiting():
    result = launch(SCRIPTS / "early_exit.py", workers=2, echo=False, timeout=60)
    assert result.failed == "worker 1" and result.task("worker", 1).returncode == 0
    assert result.reason == ("worker 1 finished its program without joining collective #1: "
                             "every worker must run the same steps")
    assert "Collective ops is aborted by: worker 1 finished" in result.task("worker", 0).output


def test_a_launch_past_its_timeout_is_stopped():
    result = launch(SCRIPTS / "sleeper.py", workers=1, echo=False, timeout=1.5)
    assert result.returncode == 1 and result.failed == "worker 0"
    assert result.reason == "still running after the launch's timeout of 1.5 s"
    assert result.tasks[0].returncode == -signal.SIGTERM


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_tasks_die_with_a_killed_launcher():
    """Even SIGKILL, which the launcher cannot catch: each task asked Linux to kill it then."""
    proc = subprocess.Popen([sys.executable, "-m", "sim", "launch", "--workers", "2",
                             str(SCRIPTS / "sleeper.py")], stdout=subprocess.PIPE, text=True)
    tasks, children = [], []
    try:
        deadline = time.monotonic() + 30
        while len(tasks) < 2 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if "] pids " in line:
                task, child = line.split("pids ")[1].split()
                tasks.append(int(task))
                children.append(int(child))
        proc.kill()
        proc.wait(10)
        assert len(tasks) == 2 and _wait_gone(tasks) == []
    finally:
        for pid in tasks + children:      # a task's own children are its to stop: clean up here
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
