"""Every optimizer's float32 arithmetic against TensorFlow 2.21: 200 steps under MirroredStrategy
with 4 replicas (``make test-tf``).

engine_scripts/optimizer_steps.py trains a small tanh regression with each optimizer (SGD plain,
with momentum, Nesterov and weight decay; Adam, AMSGrad and Adam under an ExponentialDecay
schedule; RMSprop plain and centered with momentum; Adagrad; under tf-keras the legacy ones too)
and prints the weights after steps 1, 10, 50 and 200. Each must agree with TensorFlow's, run
under the same Keras (Keras 3, and tf-keras with TF_USE_LEGACY_KERAS=1). Tolerance: the engines
round some float32 results differently (TensorFlow's Eigen tanh is a rational approximation, the
replicas' sums run in different orders), and the differences compound; measured (Keras 3, 4
logical CPUs on both): after 200 steps 1e-7 relative for SGD, Adam and Adagrad, 3.4e-6 for
RMSprop; up to 2.4e-6 on the way (step 10). RTOL = 5e-6. Centered RMSprop with momentum divides by
sqrt(ms - mg^2), a difference that cancels, so the roundings grow: 4.2e-5 relative at step 200,
judged at 1e-4. A float64 step size (what sim's Adam had) is off by far more after 200 steps.
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
RTOL, ATOL = 5e-6, 1e-7
RTOL_BY_CONFIG = {"rmsprop_momentum_centered": 1e-4}

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
            if not np.allclose(b, a, rtol=RTOL_BY_CONFIG.get(name, RTOL), atol=ATOL):
                worst = float(np.max(np.abs(a - b) / np.maximum(np.abs(a), ATOL)))
                problems.append(f"{name} {step}: worst relative difference {worst:.3g}")
    assert not problems, "\n".join(problems)
