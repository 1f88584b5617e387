"""bench/ps_tutorial_fit.py runs the tutorial's fit section to its BENCH line.

The bench executes the parameter-server tutorial's code as written, so a change to what sim.tf
accepts (Keras 3 refusing the tutorial's legacy optimizers, for one) breaks it; ``make bench`` is
not part of ``make test``, so this runs it. Only that it completes is checked, not its speed.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ps_tutorial_bench_reaches_its_bench_line():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "ps_tutorial_fit.py")], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[-1].startswith("BENCH ps_tutorial_fit: ")
