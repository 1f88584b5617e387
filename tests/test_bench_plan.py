"""bench/plan.py runs to its BENCH line (so make test catches a broken bench; the figure itself
is the bench's to judge, not a test's)."""
import subprocess
import sys
from pathlib import Path


def test_bench_plan_prints_its_line():
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, "bench/plan.py"], capture_output=True, text=True, cwd=root,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    line = run.stdout.strip().splitlines()[-1]
    assert line.startswith("BENCH python -m sim plan") and "210 candidate" in line
