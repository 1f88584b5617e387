"""Every optimizer's float32 arithmetic against TensorFlow 2.21: 200 steps under MirroredStrategy
with 4 replicas (``make test-tf``).

engine_scripts/optimizer_steps.py trains a small tanh regression with each optimizer (SGD plain,
with momentum, Nesterov and weight decay; Adam, AMSGrad and Adam under an ExponentialDecay
schedule; RMSprop plain and centered with momentum; Adagrad; under tf-keras the legacy ones too)
and prints the weights after steps 1, 10, 50 and 200. Each must agree with TensorFlow's, run
under the same Keras (Keras 3, and tf-keras with TF_USE_LEGACY_KERAS=1). Tolerance: the engines
sum the 4 replicas' gradients in different orders, so single float32 roundings differ and
compound; measured after 200 SGD steps 1.1e-7 relative, RTOL = 2e-6 leaves room for Adam's
division by sqrt(v) (a float64 step size would differ by ~1e-4 after 200 steps).
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
SCRIPT = HERE / "engine_scripts" / "optimizer_steps.py"
RTOL, ATOL = 2e-6, 1e-7

pytest.importorskip("tensorflow")


def _run(engine, legacy):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="3", SIM_LANG="en",
               TF_USE_LEGACY_KERAS="1" if legacy else "0")
    cmd = [sys.executable, str(SCRIPT)] if engine == "sim" else \
          [sys.executable, "-m", "sim.launch.tf_task", str(SCRIPT)]
    p = subprocess.run(cmd, env=env, cwd=str(SCRIPT.parent), capture_output=True, text=True,
                       timeout=3000)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return json.loads([x for x in p.stdout.splitlines() if x.startswith("ENGINE-JSON ")][-1][12:])


@pytest.mark.parametrize("legacy", [False, True], ids=["keras3", "tf_keras"])
def test_200_steps_of_each_optimizer_on_4_replicas(legacy):
    ref, got = _run("tensorflow", legacy), _run("sim", legacy)
    assert set(ref) == set(got)
    problems = []
    for name in ref:
        r, g = ref[name], got[name]
        if "__error__" in r or "__error__" in g:
            problems.append(f"{name}: TensorFlow {r}, sim {g}")
            continue
        for step in ("step1", "step10", "step50", "step200"):
            a = np.concatenate([np.ravel(x) for x in r[step]])
            b = np.concatenate([np.ravel(x) for x in g[step]])
            if not np.allclose(b, a, rtol=RTOL, atol=ATOL):
                worst = float(np.max(np.abs(a - b) / np.maximum(np.abs(a), ATOL)))
                problems.append(f"{name} {step}: worst relative difference {worst:.3g}")
    assert not problems, "\n".join(problems)
