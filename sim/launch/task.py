"""``python -m sim.launch.task script.py [args]``: how the launcher runs one task's script.

The script runs as ``__main__`` with its own ``sys.argv`` and folder on ``sys.path``, exactly as
``python script.py`` would run it; it learns its role only from TF_CONFIG. Around it this
runner (1) asks Linux to kill the process if the launcher dies, so no task outlives it, (2)
notes whether any TensorFlow op ran before MultiWorkerMirroredStrategy was created (TensorFlow
refuses that: "Collective ops must be configured at program startup"), and (3) when the script
raises, tells the fabric which error stopped this task, so the others name it.
"""
from __future__ import annotations

import os
import runpy
import signal
import sys
import traceback

from sim.distribute import startup_ops

ENV_PARENT = "SIM_LAUNCH_PARENT_PID"


def _die_with_launcher():
    """PR_SET_PDEATHSIG: SIGKILL this process when the launcher (its parent) dies."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)          # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    parent = os.environ.get(ENV_PARENT)
    if parent and os.getppid() != int(parent):         # the launcher died before prctl
        os._exit(1)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_script(argv, "sim", before=startup_ops.listen, on_error=_report)


def run_script(argv, engine, before=None, on_error=None) -> int:
    """Run ``argv[0]`` as ``python script.py argv[1:]`` would, in a task of a launch of
    ``engine`` ("sim" or "tensorflow"): dies with the launcher, applies SIM_SAME_START
    (same_start.py), calls ``before()`` just before the script and ``on_error(error)`` when it
    raises; returns the exit status."""
    _die_with_launcher()
    from sim.launch.stop_signals import release
    release()                  # the launcher held Ctrl-C/SIGTERM/SIGHUP while it started this task
    script = argv[0]
    sys.argv = argv
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    if os.environ.get("SIM_SAME_START"):    # the same data and start on both engines
        from sim.launch.same_start import install
        try:
            install(engine)
        except ValueError as e:
            print(f"ValueError: {e}", flush=True)
            return 2
    if os.environ.get("SIM_SAME_INIT"):     # seeded initial weights and the same data (same_init.py)
        from sim.launch.same_init import install as install_same_init
        install_same_init(engine)
    if before is not None:
        before()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException as e:
        traceback.print_exc()
        if on_error is not None:
            on_error(e)
        return 1
    return 0


def _report(error):
    """Tell the fabric why this task stops (unless it only stops because another task failed)."""
    from sim.fabric import client
    c = client.current()
    if c is None or getattr(error, "_sim_peer_failure", False):
        return
    first = (str(error).splitlines() or [""])[0]
    c.report_error(f"{type(error).__name__}: {first}" if first else type(error).__name__)


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(code)
