"""Every optimizer's float32 arithmetic against TensorFlow 2.21: 200 steps under MirroredStrategy
with 4 replicas (``make test-tf``).

engine_scripts/optimizer_steps.py trains a small tanh regression with each optimizer (SGD plain,
with momentum, Nesterov and weight decay; Adam, AMSGrad and Adam under an ExponentialDecay
schedule; RMSprop plain and centered with momentum; Adagrad; under tf-keras the legacy ones too)
and prints the weights after steps 1, 10, 50 and 200. Each must agree with TensorFlow's, run
under the same Keras (Keras 3, and tf-keras with TF_USE_LEGACY_KERAS=1). Tolerance: the engines
round some float32 results differently (TensorFlow's Eigen tanh is a rational approximation, the
replicas' sums run in different orders), and the differences compound. Measured (4 logical CPUs
on both engines): after one step every optimizer agrees to 2.1e-7 (a formula in another order or
another precision would not: the legacy RMSprop's float32 1 - rho showed as 1.2e-7 at once), so
STEP1_RTOL = 5e-7; after 200 steps 1e-7 to 5e-7 for SGD, Adam, Adagrad and the schedule, so
RTOL = 5e-6 (2.4e-6 was the worst on the way, at step 10). RMSprop divides by sqrt(ms) as the
loss reaches zero, which amplifies the roundings near convergence: measured 3.4e-6 (RMSprop),
2.8e-5 (legacy), 3.9e-5 (centered with momentum), 7.5e-5 (legacy with momentum) at step 200 with
AVX-512; on an AVX2-only EPYC, whose BLAS and Eigen kernels round in other orders, 1.1e-4 (centered
with momentum) and 3.5e-4 (legacy with momentum). Judged at 1e-3 (1e-4 for plain RMSprop). A float64
step size (what sim's Adam had) is off by far more after 200 steps, and step 1 stays at 5e-7.
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
STEP1_RTOL = 5e-7
RTOL_BY_CONFIG = {"rmsprop": 1e-4, "legacy_rmsprop": 1e-4,
                  "rmsprop_momentum_centered": 1e-3, "legacy_rmsprop_momentum": 1e-3}

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
            rtol = STEP1_RTOL if step == "step1" else RTOL_BY_CONFIG.get(name, RTOL)
            if not np.allclose(b, a, rtol=rtol, atol=ATOL):
                worst = float(np.max(np.abs(a - b) / np.maximum(np.abs(a), ATOL)))
                problems.append(f"{name} {step}: worst relative difference {worst:.3g}")
    assert not problems, "\n".join(problems)
