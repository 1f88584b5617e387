"""tf.random.Generator and the stateless random ops give TensorFlow 2.21's numbers (``make test-tf``).

engine_scripts/random_generator.py draws with every method and way of making a generator, then
under MirroredStrategy (2 replicas); each value must equal TensorFlow's exactly (float32 values
compared as float32: both engines run the same Philox kernel). Errors by class (ThreeFry is
TensorFlow's UnimplementedError on CPU). ``binomial`` is TensorFlow's kernel (inversion and
BTRS, sim/engine/binomial.py): its draws and the state it leaves are compared too.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCRIPT = HERE / "engine_scripts" / "random_generator.py"

pytest.importorskip("tensorflow")


def _run(engine):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="3", SIM_LANG="en")
    cmd = [sys.executable, str(SCRIPT)] if engine == "sim" else \
          [sys.executable, "-m", "sim.launch.tf_task", str(SCRIPT)]
    p = subprocess.run(cmd, env=env, cwd=str(SCRIPT.parent), capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return json.loads([x for x in p.stdout.splitlines() if x.startswith("ENGINE-JSON ")][-1][12:])


@pytest.fixture(scope="module")
def both():
    return _run("tensorflow"), _run("sim")


def _same(a, b):
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.get("__error__") == b.get("__error__")
    x, y = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    if x.shape != y.shape:
        return False
    return all(float(np.float32(p)) == float(np.float32(q)) if isinstance(p, float) else p == q
               for p, q in zip(x.ravel(), y.ravel()))


def test_every_draw_is_tensorflows(both):
    ref, got = both
    assert set(ref) == set(got)
    diffs = [f"{k}: TensorFlow {ref[k]} sim {got[k]}" for k in ref if not _same(ref[k], got[k])]
    assert not diffs, "\n".join(diffs)
    assert ref["threefry_normal"]["__error__"] == "UnimplementedError"
