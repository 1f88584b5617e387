"""Start a simulated cluster: one OS process per task, each with its own TF_CONFIG.

``launch(script, workers=2, chief=False, ps=0, machine=..., gpus_per_worker=None, fail_at=None)``
starts ``python script.py args`` once per task (chief, workers, ps), in its own process group,
with TF_CONFIG, the fabric's address and the launch's secret in its environment. Output lines
come back prefixed by task (``[worker 0] ...``). When a task fails (non-zero exit, a signal, or
an error it reported to the fabric) the others are given a moment to print their own error,
then stopped (SIGTERM, then SIGKILL, per process group); so are all on Ctrl-C, SIGTERM or
SIGHUP of the launcher (stop_signals.py). Each task also dies with the launcher (task.py).
Returns a ``LaunchResult``.
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from sim.i18n import t
from sim.fabric import client as _env
from sim.fabric.messages import reason_text, task_label
from sim.launch import stop_signals
from sim.launch.launch_options import DEFAULT_MACHINE, check_options, parse_fail_at  # noqa: F401
from sim.launch.task_process import TaskProcess, why_it_ended
from sim.launch.stop_signals import LaunchInterrupted  # noqa: F401  (the CLI's SIGTERM)
from sim.launch.stopping import kill_now as _kill_now, stop as _stop
from sim.launch.waiting import Watch, hung

_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
GRACE_SECONDS = 1.0          # how long the others may take to stop by themselves after a failure


def one_blas_thread_each(env) -> None:
    """N tasks share the cores: one BLAS thread each in ``env``, unless it asks for more. A
    multi-threaded BLAS in every task oversubscribes the cores (on the 2-core course machine two
    workers each spinning two BLAS threads ran a custom loop 7x slower than one process)."""
    for var in _BLAS_THREADS:
        env.setdefault(var, "1")


@dataclass
class TaskResult:
    """One task: its type and index, exit status (negative: killed by that signal), output."""
    task_type: str
    task_id: int
    returncode: int | None
    output: str

    @property
    def name(self) -> str:
        return f"{self.task_type} {self.task_id}"


@dataclass
class LaunchResult:
    """What a launch returns: ``returncode`` (0 when every task exited 0), ``tasks``, ``failed``
    (the task that failed first, e.g. "worker 1", or None), ``reason`` (why, in words),
    ``trace`` (every task's simulated timeline, TraceEvent rows) and ``collectives`` (the
    fabric's rounds: seq, op, start, end, bytes), all on the cluster's one simulated clock."""
    returncode: int
    tasks: list
    failed: str | None = None
    reason: str | None = None
    trace: list = field(default_factory=list)
    collectives: list = field(default_factory=list)

    def task(self, task_type, task_id=0) -> TaskResult:
        return next(r for r in self.tasks if r.task_type == task_type and r.task_id == task_id)

    @property
    def output(self) -> str:
        """Every task's output, prefixed like the launcher's log."""
        return "".join(f"[{r.name}] {line}\n" for r in self.tasks for line in r.output.splitlines())


# ------------------------------------------------------------------------------------ running


def launch(script, args=(), workers=2, chief=False, ps=0, machine=DEFAULT_MACHINE,
           gpus_per_worker=None, fail_at=None, echo=True, env=None, timeout=None,
           engine="sim", python=None, fork=False, stop_orphans=None):
    """Run ``script`` as a simulated cluster; a ``LaunchResult``.

    ``echo``: True prints each task's lines as they come (``[worker 0] ...``) to stdout, a file
    object prints there, False keeps them only in the result. ``fail_at=("worker", 1, 3)`` kills
    worker 1 at its third training step (``strategy.run``). ``env``: extra environment variables.
    ``timeout`` (s): stop every task after this long (a failure of the launch).
    ``engine="tensorflow"`` runs the same script on real TensorFlow (``sim.launch.tf_task``: its
    ``import sim.tf`` gives ``tensorflow``) under ``python`` (``sim.launch.tf_engine``), with
    the same TF_CONFIG per task and no simulated fabric; ``fail_at`` is a sim-only option.
    ``fork=True`` (the CLI's, after ``sim.launch.forked.preload()``) forks the tasks from this
    process instead of starting new interpreters: only where ``forked.available()`` says so.
    ``stop_orphans``: called once the tasks are gone (the CLI's subreaper.stop_orphans), so that
    helpers a script detached stop too and release the output pipes they hold.
    """
    from sim.launch.tf_engine import check_engine
    exe = check_engine(engine, python)
    if engine != "sim" and fail_at is not None:
        raise ValueError(t("tfengine.sim_only", option="--fail-at"))
    if isinstance(fail_at, str):
        fail_at = parse_fail_at(fail_at)
    check_options(script, workers, chief, ps, machine, gpus_per_worker, fail_at)
    from sim.fabric.launch_machine import ClusterReducer
    from sim.fabric.server import Fabric
    from sim.launch.tf_configs import loopback      # (NumPy-free start: imported when used)
    tasks = loopback(workers, chief=chief, ps=ps)   # each task's TF_CONFIG, chief first, on 127.0.0.1
    group = [f"{x.task_type}:{x.index}" for x in tasks if x.task_type in ("chief", "worker")]
    secret = secrets.token_bytes(32)
    from sim.launch import forked
    fork = fork and engine == "sim" and forked.available()
    echo = sys.stdout if echo is True else (echo or None)
    lock = threading.Lock()
    fabric = (Fabric(group, secret, ClusterReducer(machine, len(group), gpus_per_worker),
                     start=not fork,        # a forked task must not inherit a running thread
                     say=lambda text: _say(echo, lock, text))      # a refused peer, named
              if engine == "sim" else _NoFabric(group))
    runner = "sim.launch.task" if engine == "sim" else "sim.launch.tf_task"
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from sim.i18n import get_language
    base_env = dict(os.environ, SIM_LANG=get_language())     # the tasks speak the course language
    base_env.update(env or {})
    base_env["PYTHONPATH"] = os.pathsep.join(
        [package_root] + [p for p in base_env.get("PYTHONPATH", "").split(os.pathsep) if p])
    one_blas_thread_each(base_env)
    base_env.update({"PYTHONUNBUFFERED": "1", "SIM_LAUNCH_PARENT_PID": str(os.getpid())})
    if engine == "sim":
        base_env.update({_env.ENV_ADDRESS: "%s:%d" % fabric.address, _env.ENV_SECRET: secret.hex(),
                         _env.ENV_MACHINE: machine})
    if gpus_per_worker is not None:
        base_env[_env.ENV_GPUS] = str(gpus_per_worker)
    if engine != "sim":
        base_env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")    # TensorFlow's C++ INFO/WARNING lines
        # sim.keras follows tf.keras 2 (the tf-keras package); TensorFlow 2.21's default Keras 3
        # refuses the course's custom loops under MWMS (PerReplica values), so ask for Keras 2.
        base_env.setdefault("TF_USE_LEGACY_KERAS", "1")
    running: list = []
    failed = reason = None
    interrupted = None
    try:
        for task in tasks:
            kind, index = task.task_type, task.index
            task_env = dict(base_env, TF_CONFIG=task.json)
            if fail_at is not None and (kind, index) == fail_at[:2]:
                task_env[_env.ENV_FAIL_STEP] = str(fail_at[2])
            with stop_signals.held():    # a task is recorded before Ctrl-C can stop the launch
                if fork:
                    proc = forked.fork_task([str(script), *map(str, args)], task_env)
                else:
                    proc = subprocess.Popen([exe, "-m", runner, str(script), *map(str, args)],
                                            env=task_env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                            start_new_session=True)
                running.append(TaskProcess(kind, index, proc, echo, lock, read=not fork))
        if fork:                                   # every task forked: now the threads
            fabric.start()
            for x in running:
                x.start_reading()
        watch = Watch(fabric, running, lambda text: _say(echo, lock, text), timeout)
        failed, reason = _supervise(running, fabric, fail_at, timeout, watch)
    except KeyboardInterrupt as e:
        interrupted = e
    finally:
        try:                           # a second Ctrl-C ends at once: every group is killed
            _stop(running, grace=GRACE_SECONDS if failed and interrupted is None else 0.0,
                  stop_orphans=stop_orphans)
        except KeyboardInterrupt as again:
            with stop_signals.held():
                _kill_now(running, stop_orphans)
            interrupted = interrupted or again
        with stop_signals.held():
            fabric.close()
    results = [TaskResult(x.kind, x.index, x.proc.returncode, "\n".join(x.lines) + ("\n" if x.lines else ""))
               for x in running]
    if interrupted is not None:
        _say(echo, lock, t("launch.interrupted", signal=stop_signals.name(interrupted)))
        interrupted._sim_said = True     # the CLI prints the line itself only when this did not
        raise interrupted
    if failed is not None:
        label = task_label(failed)
        why = reason[len(label) + 1:] if reason.startswith(label + " ") else reason
        _say(echo, lock, t("launch.task_failed", task=label, why=why))
        others = [task_label(x.name) for x in running if x.name != failed]
        if others:
            _say(echo, lock, t("launch.others_stopped", tasks=", ".join(others)))
    else:
        _say(echo, lock, t("launch.all_done", n=len(running)))
    return LaunchResult(0 if failed is None else 1, results, task_label(failed) if failed else None,
                        reason, _cluster_trace(fabric), list(fabric.collectives))


class _NoFabric:
    """What the supervisor reads of a fabric, for real TensorFlow (its own gRPC links the tasks)."""

    failure = None
    collectives: tuple = ()

    def __init__(self, group):
        self.group, self.traces = group, {}

    def ended(self, name, code):
        pass

    def close(self):
        pass


def _say(echo, lock, text):
    if echo is not None:
        with lock:
            echo.write(text + "\n")
            echo.flush()


def _supervise(running, fabric, fail_at, timeout, watch=None):
    """Wait until every task ended (None, None) or one failed: (its name, why, in words).

    The first failure is the fabric's when it has one (a task that reported an error, or whose
    connection dropped, before the others aborted because of it), else the first task seen
    ending non-zero. A task that ends, even with 0, while the others wait for it in a
    collective is a failure too (the fabric is told, and aborts the round)."""
    start = time.monotonic()
    by_name = {x.name: x for x in running}
    while True:
        ended = [x for x in running if x.proc.poll() is not None]
        for x in ended:
            fabric.ended(x.name, x.proc.returncode)
        bad = [x for x in ended if x.proc.returncode != 0]
        if fabric.failure is not None or bad:
            name, code = fabric.failure if fabric.failure is not None else (bad[0].name, None)
            origin = by_name.get(name)
            if origin is not None:
                try:                       # its exit status and last words say best what happened
                    origin.proc.wait(timeout=GRACE_SECONDS)
                except subprocess.TimeoutExpired:
                    pass
                if origin.proc.returncode not in (None, 0):
                    origin.join_output()
                    return name, why_it_ended(origin, fail_at)
            return name, reason_text(name, code or "lost")
        if len(ended) == len(running):
            return None, None
        if timeout is not None and time.monotonic() - start > timeout:
            name, where = hung(fabric, running)      # the task the others wait for
            why = t("launch.why_timeout", seconds=timeout)
            return name, f"{why} ({where})" if where else why
        if watch is not None:
            watch.tick()
        time.sleep(0.01)


def _cluster_trace(fabric):
    if not any(fabric.traces.values()):
        return []               # nothing to show: the simulator (and NumPy) stay unimported
    from sim.des.trace import TraceEvent
    rows = []
    for task in fabric.group:
        for e in fabric.traces.get(task, []):
            try:
                rows.append(TraceEvent(**e))
            except TypeError:
                continue
    rows.sort(key=lambda e: (e.start, e.where))
    return rows
