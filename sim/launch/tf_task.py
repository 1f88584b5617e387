"""``python -m sim.launch.tf_task script.py [args]``: one task of ``--engine tensorflow``.

The same unedited script the simulated launch runs, under real TensorFlow: ``import sim.tf as tf``
is routed to ``tensorflow`` (``sim.launch.tf_alias``) before the script starts. As in the simulated
task the script runs as ``__main__`` with its own ``sys.argv`` and folder on ``sys.path``, learns
its role from TF_CONFIG, and the process dies with the launcher.
"""
from __future__ import annotations

import os
import runpy
import sys
import traceback


def main(argv=None) -> int:
    from sim.launch.task import _die_with_launcher
    from sim.launch.tf_alias import install
    argv = list(sys.argv[1:] if argv is None else argv)
    _die_with_launcher()
    install()
    script = argv[0]
    sys.argv = argv
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    if os.environ.get("SIM_SAME_START"):     # the same data and start as the simulated run
        from sim.launch.same_start import install as same_start
        try:
            same_start("tensorflow")
        except ValueError as e:
            print(f"ValueError: {e}", flush=True)
            return 2
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # TensorFlow's gRPC threads can keep a finished process alive; its work is done.
    os._exit(code)
