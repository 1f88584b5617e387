"""TensorFlow's dtype rules, property-style, against TensorFlow 2.21 (``make test-tf``).

engine_scripts/dtype_rules.py draws random operands of Python, NumPy and tensor kinds (floats,
ints, bools, lists, arrays and NumPy scalars of each width, tensors, variables) through a broad
set of ops (conversion, tf.range/fill/linspace, elementwise math, operators both ways, reductions,
concat/stack/where, variables and their assignments) and prints each case's result dtype and
shape, or its exception class. Both engines run the same cases (a fixed seed); each must agree.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCRIPT = HERE / "engine_scripts" / "dtype_rules.py"

pytest.importorskip("tensorflow")

# (cases, seed): a broad draw and a second one the rules were not tuned on
DRAWS = [(1000, 37), (1500, 11)]


def _cases(engine, n, seed):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="3", SIM_LANG="en")
    env.pop("TF_USE_LEGACY_KERAS", None)
    cmd = [sys.executable, str(SCRIPT), str(n), str(seed)] if engine == "sim" else \
          [sys.executable, "-m", "sim.launch.tf_task", str(SCRIPT), str(n), str(seed)]
    p = subprocess.run(cmd, env=env, cwd=str(SCRIPT.parent), capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    line = [x for x in p.stdout.splitlines() if x.startswith("ENGINE-JSON ")][-1]
    return json.loads(line.split(" ", 1)[1])


@pytest.mark.parametrize("n,seed", DRAWS)
def test_result_dtype_or_error_class_as_tensorflow(n, seed):
    tf_cases, sim_cases = _cases("tensorflow", n, seed), _cases("sim", n, seed)
    assert [(c["op"], c["kinds"]) for c in tf_cases] == [(c["op"], c["kinds"]) for c in sim_cases]
    kinds = {c["result"].get("dtype") or c["result"].get("__error__") for c in tf_cases}
    assert {"float32", "int32", "float64", "InvalidArgumentError", "TypeError"} <= kinds
    diffs = [f"{t['op']}{tuple(t['kinds'])}: TensorFlow {t['result']}, sim {s['result']}"
             for t, s in zip(tf_cases, sim_cases) if t["result"] != s["result"]]
    assert not diffs, f"{len(diffs)} of {n} cases differ:\n" + "\n".join(diffs[:40])
