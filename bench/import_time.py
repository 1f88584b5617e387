"""How long ``import sim.tf`` takes, next to ``import numpy``, each in a fresh interpreter.

Target: ``import sim.tf`` (numpy included) under 1 s. Best of 5 runs each, same machine, same run.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
TARGET = 1.0  # seconds


def import_seconds(module: str) -> float:
    code = (f"import time; t = time.perf_counter(); import {module}; "
            f"print(time.perf_counter() - t)")
    best = float("inf")
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, cwd=ROOT)
        best = min(best, float(out.stdout.strip()))
    return best


def main() -> None:
    numpy_s = import_seconds("numpy")
    sim_s = import_seconds("sim.tf")
    ok = "ok" if sim_s < TARGET else "MISS"
    print(f"BENCH import sim.tf: {sim_s:.3f} s (numpy {numpy_s:.3f} s, target < 1 s) {ok}")


if __name__ == "__main__":
    main()
