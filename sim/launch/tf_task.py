"""``python -m sim.launch.tf_task script.py [args]``: one task of ``--engine tensorflow``.

The same unedited script the simulated launch runs, under real TensorFlow: ``import sim.tf as tf``
is routed to ``tensorflow`` (``sim.launch.tf_alias``) before the script starts. As in the simulated
task the script runs as ``__main__`` with its own ``sys.argv`` and folder on ``sys.path``, learns
its role from TF_CONFIG, and the process dies with the launcher.
"""
from __future__ import annotations

import os
import sys


def main(argv=None) -> int:
    from sim.launch.task import run_script
    from sim.launch.tf_alias import install
    install()
    return run_script(list(sys.argv[1:] if argv is None else argv), "tensorflow")


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # TensorFlow's gRPC threads can keep a finished process alive; its work is done.
    os._exit(code)
