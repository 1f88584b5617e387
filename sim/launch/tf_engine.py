"""Which Python runs the tasks of ``--engine tensorflow``, and whether it has TensorFlow.

TensorFlow is large and lives apart from the course's own environment (``make test-tf`` builds
``.venv-tf``), so the interpreter is chosen: ``--python PATH`` first, then the ``SIM_TF_PYTHON``
environment variable, then the launcher's own Python. Without TensorFlow there the launch stops
before starting any task with one line saying so and how to install it (exit status 2).
"""
from __future__ import annotations

import os
import subprocess
import sys

from sim.i18n import join_list, t

ENGINES = ("sim", "tensorflow")
ENV_PYTHON = "SIM_TF_PYTHON"
_PROBE = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('tensorflow') else 3)"


def tensorflow_python(python=None):
    """The interpreter the TensorFlow tasks run under."""
    return python or os.environ.get(ENV_PYTHON) or sys.executable


def check_engine(engine, python=None):
    """ValueError naming the mistake and the fix: an unknown engine, a missing interpreter, or
    an interpreter without TensorFlow. Returns the interpreter to use."""
    if engine not in ENGINES:
        raise ValueError(t("tfengine.unknown_engine", engine=engine, known=join_list(ENGINES)))
    if engine == "sim":
        return sys.executable
    exe = tensorflow_python(python)
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        raise ValueError(t("tfengine.no_python", python=exe))
    try:
        probe = subprocess.run([exe, "-c", _PROBE], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        found = probe.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        found = False
    if not found:
        raise ValueError(t("tfengine.not_installed", python=exe))
    return exe
