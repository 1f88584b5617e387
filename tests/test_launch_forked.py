"""The CLI's fork server (sim/launch/forked.py): a forked task sees what a fresh interpreter
running ``python -m sim.launch.task script.py`` would, and the launch behaves the same."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sim.tf as tf
from sim.launch import forked, launch

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = Path(__file__).with_name("launch_scripts")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")


def _cli(*argv, env=None):
    full = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "sim", "launch", *map(str, argv)], env=full,
                          capture_output=True, text=True, timeout=120)


def _probes(stdout):
    return {p["task"]: p for p in (json.loads(line.split("PROBE ", 1)[1])
                                   for line in stdout.splitlines() if "PROBE " in line)}


def test_a_forked_task_is_a_fresh_process():
    run = _cli("--workers", "2", SCRIPTS / "fresh_process_probe.py", "3", env={"SIM_LANG": "pt"})
    probes = _probes(run.stdout)
    assert set(probes) == {"worker:0", "worker:1"}, run.stdout + run.stderr
    for p in probes.values():
        assert p["name"] == "__main__" and p["argv"] == ["3"] and p["stdin"] == ""
        assert p["lang"] == "pt" and p["pgid_is_pid"] and p["forked"]
    assert probes["worker:0"]["parent"] == probes["worker:1"]["parent"]      # the launcher
    assert probes["worker:0"]["draw"] != probes["worker:1"]["draw"]          # RNG drawn afresh
    for task in ("worker 0", "worker 1"):          # atexit and non-daemon threads, as at exit
        assert f"[{task}] thread joined" in run.stdout and f"[{task}] atexit ran" in run.stdout
    assert run.returncode == 1 and "worker 1" in run.stdout   # sys.exit(3) is a failed task


def test_forked_training_gives_the_spawned_launch_weights(tmp_path):
    """MWMS Model.fit on 2 workers: forked (CLI) and spawned (launch()) end with equal weights."""
    run = _cli("--workers", "2", SCRIPTS / "mwms_fit.py", tmp_path / "forked")
    assert run.returncode == 0, run.stdout + run.stderr
    spawned = launch(SCRIPTS / "mwms_fit.py", [tmp_path / "spawned"], workers=2, echo=False,
                     timeout=100)
    assert spawned.returncode == 0, spawned.output
    for name in ("worker_0", "worker_1"):
        a, b = np.load(tmp_path / f"forked_{name}.npz"), np.load(tmp_path / f"spawned_{name}.npz")
        assert set(a.files) == set(b.files)
        for key in a.files:
            np.testing.assert_array_equal(a[key], b[key])


def test_no_fork_where_a_thread_runs():
    """A process with threads (a Jupyter kernel, pytest-xdist) must not fork: launch() spawns."""
    import threading
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)
    helper.start()
    try:
        assert not forked.available()
        result = launch(SCRIPTS / "fresh_process_probe.py", ["0"], workers=1, echo=False,
                        fork=True, timeout=60)
    finally:
        stop.set()
        helper.join()
    probe = _probes(result.output.replace("[worker 0] ", ""))["worker:0"]
    assert result.returncode == 0 and probe["parent"] == os.getpid()
    assert not probe["forked"] and not probe["pytest_loaded"]       # a new interpreter


_PARENT_WITH_EXIT_HOOK = r"""
import atexit, os, sys
from sim.launch import forked
log = sys.argv[1]
atexit.register(lambda: open(log, "a").write(f"hook ran in {os.getpid()}\n"))
task = forked.fork_task([sys.argv[2]], dict(os.environ))
out = task.stdout.read().decode()
print(out.strip(), "| task", task.wait(timeout=60), "parent", os.getpid())
"""


def test_a_forked_task_runs_none_of_its_parents_exit_hooks(tmp_path):
    """A Jupyter kernel's exit hooks close its ZMQ sockets: run in a task, they would reach the
    kernel's own ZMQ threads through the fork. A fresh interpreter has none of them."""
    script = tmp_path / "task.py"
    script.write_text("import atexit\natexit.register(lambda: print('own hook'))\n")
    log = tmp_path / "hooks.log"
    run = subprocess.run([sys.executable, "-c", _PARENT_WITH_EXIT_HOOK, str(log), str(script)],
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    parent = run.stdout.split()[-1]
    assert run.stdout.startswith("own hook | task 0 "), run.stdout       # the task's own ran
    assert log.read_text() == f"hook ran in {parent}\n"        # the parent's, once, not the task's
