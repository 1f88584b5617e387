"""Ctrl-C, SIGTERM or SIGHUP at any moment of a start (even while the tasks are being forked)
stop every task, say so in one line and exit 128 + the signal (130, 143, 129): no traceback,
no orphan (a task's own children included)."""
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
SCRIPTS = Path(__file__).with_name("launch_scripts")


def _marked(mark):
    """Processes whose environment holds ``mark`` (the launcher, its tasks, their children)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if mark.encode() in f.read():
                    with open(f"/proc/{pid}/stat") as g:
                        if g.read().rsplit(")", 1)[1].split()[0] != "Z":
                            found.append(int(pid))
        except OSError:
            continue
    return found


def _wait_until_python_catches(pid, sig, seconds=30):
    """Until the interpreter has its own handler for ``sig`` (SigCgt in /proc): before that a
    signal kills any program at once, as it would a shell's Ctrl-C, so ``after`` counts from
    there (on a loaded machine the interpreter's own start took over 0.15 s)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/status") as f:
                caught = int(next(line for line in f if line.startswith("SigCgt:")).split()[1], 16)
        except (OSError, StopIteration):
            return
        if caught >> (int(sig) - 1) & 1:
            return
        time.sleep(0.002)


def _stop_at(sig, after, workers, script):
    mark = f"FABRIC_SIGNAL_TEST={uuid.uuid4().hex}"
    env = dict(os.environ, FABRIC_SIGNAL_TEST=mark.split("=")[1])
    proc = subprocess.Popen([sys.executable, "-m", "sim", "launch", "--workers", str(workers),
                             str(script)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    _wait_until_python_catches(proc.pid, signal.SIGINT)
    time.sleep(after)
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    deadline = time.monotonic() + 10
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _marked(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return proc.returncode, out, err, left


@pytest.mark.parametrize("sig, after", [(signal.SIGINT, 0.15), (signal.SIGTERM, 0.3),
                                        (signal.SIGINT, 0.5), (signal.SIGTERM, 0.8)])
def test_a_signal_in_the_first_second_of_a_16_worker_start_exits_cleanly(sig, after):
    code, out, err, left = _stop_at(sig, after, 16, SCRIPTS / "hang.py")
    assert (code, left) == (128 + sig, [])
    assert "Traceback" not in out + err and "Exception ignored" not in out + err, err
    assert out.splitlines()[-1] == f"launch interrupted ({sig.name}): every task was stopped"


@pytest.mark.parametrize("script", ["sleeper.py", "session_child.py"])
@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_stopping_the_launcher_stops_every_task_and_their_children(sig, script):
    """sleeper.py starts a child in the task's process group, session_child.py one in a
    session of its own (the launcher adopts it when the task is gone: subreaper.py)."""
    code, out, err, left = _stop_at(sig, 3.0, 2, SCRIPTS / script)
    assert (code, left) == (128 + sig, [])
    assert out.count("] pids ") == 2, out
    assert out.splitlines()[-1] == f"launch interrupted ({sig.name}): every task was stopped"


def test_ctrl_c_while_the_launch_command_is_imported_says_so(monkeypatch, capsys):
    """The earliest moment a signal can stop a launch: ``python -m sim`` still importing it."""
    import importlib

    import sim.__main__ as entry

    def interrupted_import(name):
        raise KeyboardInterrupt
    monkeypatch.setattr(importlib, "import_module", interrupted_import)
    monkeypatch.setenv("SIM_LANG", "en")
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}
    assert entry.main(["launch", "--workers", "2", "train.py"]) == 130
    assert capsys.readouterr().out.splitlines() == ["launch interrupted (SIGINT): every task was stopped"]
    assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL   # SIGTERM too, from the start
    for sig, handler in kept.items():                     # put back what pytest had
        signal.signal(sig, handler)
