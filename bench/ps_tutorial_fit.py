"""Benchmark: the parameter-server tutorial's Model.fit section, end to end, on the simulator.

Covers: the cluster set-up, ParameterServerStrategy, and the tutorial's ``model.fit(dataset,
epochs=5, steps_per_epoch=20, callbacks=[TensorBoard, ModelCheckpoint, BackupAndRestore])``
with steps scheduled on 3 simulated workers and 2 parameter servers (code from
tests/data/ps_tutorial.py, sections setup, cluster, strategy, fit). Baseline, in the same
process: the same fit section under the default strategy (no cluster, no coordinator). Targets:
the PS fit section under 10 s of wall time (so lesson 07 stays quick), and its ratio to the
baseline is reported with it.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import time
from pathlib import Path

# The tutorial was written for tf.keras 2 (tf.keras.optimizers.legacy): on TensorFlow 2.21 it
# runs with tf-keras, as tests/test_ps_tutorial.py runs it (sim/keras/version.py).
os.environ["TF_USE_LEGACY_KERAS"] = "1"

TUTORIAL = Path(__file__).resolve().parents[1] / "tests" / "data" / "ps_tutorial.py"
TARGET_SECONDS = 10.0
REPEATS = 2


def sections(working_dir: str) -> dict:
    text = TUTORIAL.read_text(encoding="utf-8").replace("/tmp/my_working_dir", working_dir)
    parts = re.split(r"^# --- section: (\w+)\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def timed(names, prelude="") -> float:
    with tempfile.TemporaryDirectory() as d:
        code = sections(d)
        ns: dict = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code["setup"], "setup", "exec"), ns)   # imports: not timed
            t0 = time.perf_counter()
            if prelude:
                exec(prelude, ns)
            for name in names:
                exec(compile(code[name], name, "exec"), ns)
            return time.perf_counter() - t0


def main() -> None:
    ps = min(timed(["cluster", "strategy", "fit"]) for _ in range(REPEATS))
    default = min(timed(["fit"], "strategy = tf.distribute.get_strategy()\n")
                  for _ in range(REPEATS))
    print(f"tutorial Model.fit section: ParameterServerStrategy {ps:.2f} s, "
          f"default strategy {default:.2f} s, ratio {ps / default:.2f}x")
    print(f"BENCH ps_tutorial_fit: {ps:.2f} s wall, {ps / default:.2f}x the default-strategy fit "
          f"(target < {TARGET_SECONDS:g} s) {'ok' if ps < TARGET_SECONDS else 'MISS'}")


if __name__ == "__main__":
    main()
