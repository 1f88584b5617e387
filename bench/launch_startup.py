"""The launcher's start-up cost: ``python -m sim launch --workers 4 task.py`` where each task only
imports sim.tf, against one bare ``python -c "import sim.tf"``, wall time, side by side.

Four new interpreters on the 2-core course machine could not start in less than about twice
one start-up (two cores, four imports of NumPy); the CLI imports sim.tf once and forks its tasks
(sim/launch/forked.py), and adds its own interpreter, the fabric and the process management. Interleaved REPEATS rounds after an untimed warm-up of each, ratio of the medians,
so load from other processes falls on both sides alike.

The warm-up also compiles the package's bytecode, as any first run of Python does: where
PYTHONDONTWRITEBYTECODE is set (some sandboxes and CI images set it) every process would
otherwise compile each module of ``sim`` from source, a cost no installed package pays.
"""
from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASK = os.path.join(ROOT, "bench", "_import_sim_tf.py")
REPEATS = 5
TARGET = 3.0
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + [p for p in os.environ.get(
    "PYTHONPATH", "").split(os.pathsep) if p]))


def _timed(argv):
    start = time.perf_counter()
    subprocess.run(argv, env=ENV, check=True, stdout=subprocess.DEVNULL, timeout=120)
    return time.perf_counter() - start


def main():
    launch = [sys.executable, "-m", "sim", "launch", "--workers", "4", TASK]
    bare = [sys.executable, "-c", "import sim.tf"]
    compileall.compile_dir(os.path.join(ROOT, "sim"), quiet=1)   # bytecode, as pip install does
    _timed(launch), _timed(bare)                        # warm-up (file caches), untimed
    launched, single = [], []
    for _ in range(REPEATS):
        launched.append(_timed(launch))
        single.append(_timed(bare))
        print(f"round: launch of 4 workers {launched[-1]:.3f} s, one import {single[-1]:.3f} s")
    ratio = statistics.median(launched) / statistics.median(single)
    verdict = "ok" if ratio < TARGET else "MISS"
    print(f"BENCH launcher start-up, 4 workers vs one python -c 'import sim.tf': {ratio:.2f}x "
          f"(target < {TARGET:g}x) {verdict}")


if __name__ == "__main__":
    main()
