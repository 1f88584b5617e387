"""Start a group of commands at once, each with its own environment, as a cluster's tasks.

What srun does with the tasks of one job step, here for processes on this machine: every line
a task prints is shown with its number in front (``0: ...``, as ``srun --label``), and when one
task fails the others are stopped (``--kill-on-bad-exit``), since a synchronous job cannot go on
without it. Each task runs in a session of its own so that its whole process group is stopped;
none outlives ``run_group``.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time


def run_group(tasks, cwd=None, timeout=600.0, echo=True, label=True):
    """``tasks``: [(argv or shell text, env)]. Returns (exit status, [(task, line)]); with
    ``echo`` each line is printed as it comes, after ``k: `` when ``label``."""
    procs, lines, lock = [], [], threading.Lock()

    def pump(k, proc):
        for raw in iter(proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n").rpartition("\r")[2]
            with lock:
                lines.append((k, line))
                if echo:     # one write per line: other tasks' stand-ins share this pipe,
                    # and print() makes two (text, then newline) under PYTHONUNBUFFERED
                    sys.stdout.write((f"{k}: {line}" if label else line) + "\n")
                    sys.stdout.flush()

    readers = []
    try:
        for k, (command, env) in enumerate(tasks):
            proc = subprocess.Popen(command, shell=isinstance(command, str), cwd=cwd, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            procs.append(proc)
            reader = threading.Thread(target=pump, args=(k, proc), daemon=True)
            reader.start()
            readers.append(reader)
        status = _wait(procs, time.monotonic() + timeout)
    finally:
        for proc in procs:
            _stop(proc)
        for reader in readers:
            reader.join(timeout=10)
        for proc in procs:
            proc.stdout.close()
    return status, lines


def _wait(procs, deadline):
    """0 when all exit 0; else srun's status once a task fails (the others are stopped then):
    the highest of the ended tasks' codes, a signal counting as 128 + its number. Not the first
    in task order: a worker that exits 1 because its peer was killed must not hide the kill."""
    while True:
        codes = [p.poll() for p in procs]
        failed = [c if c > 0 else 128 - c for c in codes if c not in (None, 0)]
        if failed:
            return max(failed)
        if all(c == 0 for c in codes):
            return 0
        if time.monotonic() > deadline:
            return 124
        time.sleep(0.05)


def _stop(proc):
    """SIGTERM to the task's process group, SIGKILL after 5 s; reaps it."""
    if proc.poll() is None:
        _signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    _signal_group(proc, signal.SIGKILL)      # anything the task left behind in its group
    proc.wait()


def _signal_group(proc, sig):
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
