"""Tasks forked from a launcher that has already imported sim.tf: the CLI's fork server.

Every task of a launch imports sim.tf, and so NumPy: about 0.1 s of CPU each, four times over on
a 2-core machine. ``python -m sim launch`` imports sim.tf once (``preload``) and then forks each
task from itself (``fork_task``), so a task starts with the imports done, as a fork server does.
What a task sees is what ``python -m sim.launch.task script.py`` would give it: its own
environment (TF_CONFIG...), process group, stdin from /dev/null, stdout and stderr to the
launcher's pipe written through, default signal handlers, NumPy's global RNG drawn afresh, the
script as ``__main__``; at its end the non-daemon threads are joined and the atexit functions run
before the process exits with the script's status.

Only a fresh launcher process may fork: one that has started no thread (the fabric and the output
readers start after the forks) and run nothing of the learner's. ``launch()`` from a notebook
starts its tasks with ``subprocess`` instead: a Jupyter kernel must not be forked.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time


def available() -> bool:
    """This process can fork its tasks: Linux (macOS's system libraries are not fork-safe once
    loaded) and no thread but this one."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def preload() -> None:
    """Import what every task imports, with one BLAS thread per task unless the caller set more
    (the launcher's rule for its tasks, applied before NumPy loads)."""
    from sim.launch.launcher import one_blas_thread_each
    one_blas_thread_each(os.environ)
    import sim.tf  # noqa: F401
    import sim.launch.task  # noqa: F401


class ForkedTask:
    """What the launcher's supervisor uses of ``subprocess.Popen``, for a forked task."""

    def __init__(self, pid: int, stdout):
        self.pid, self.stdout, self.returncode = pid, stdout, None

    def poll(self):
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"task {self.pid}", timeout)
            time.sleep(0.005)
        return self.returncode


def fork_task(argv: list, env: dict) -> ForkedTask:
    """Start ``python -m sim.launch.task *argv`` as a fork of this process, with ``env``."""
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:                                   # the task: never returns into the launcher
        code = 1
        try:
            os.close(read)
            code = _run_task(argv, env, write)
        finally:
            os._exit(code)
    os.close(write)
    try:
        os.setpgid(pid, pid)       # as the child does: whoever runs first makes the group
    except OSError:
        pass
    return ForkedTask(pid, os.fdopen(read, "rb"))


def _run_task(argv, env, write) -> int:
    os.setpgid(0, 0)                               # its own group: the launcher signals it whole
    import atexit
    # The parent's exit hooks are not the task's (a fresh interpreter has none): a Jupyter
    # kernel's hooks close its ZMQ sockets, which ZMQ forbids touching from a fork
    atexit._clear()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.dup2(write, 1)
    os.dup2(write, 2)
    os.closerange(3, _highest_fd() + 1)             # the launcher's pipes and sockets stay its own
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False,
                      buffering=1, newline="\n")
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False,
                      buffering=1, newline="\n")
    os.environ.clear()
    os.environ.update(env)
    _as_a_fresh_process(env)
    from sim.launch.task import main
    code = main(list(argv))
    for thread in threading.enumerate():           # as the interpreter does at its end
        if thread is not threading.main_thread() and thread is not threading.current_thread() \
                and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def _as_a_fresh_process(env) -> None:
    """What a new interpreter would have read at start-up and the launcher's process fixed."""
    import numpy as np
    np.random.seed()                               # NumPy's global RNG: fresh entropy per task
    from sim import i18n
    if env.get("SIM_LANG") in i18n.LANGUAGES:
        i18n.set_language(env["SIM_LANG"])
    for path in reversed([p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]):
        if path not in sys.path:
            sys.path.insert(1, path)


def _highest_fd() -> int:
    try:
        return max(int(name) for name in os.listdir("/proc/self/fd"))
    except (OSError, ValueError):
        return 255
