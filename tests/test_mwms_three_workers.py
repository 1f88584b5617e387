"""MultiWorkerMirroredStrategy fit with 3 workers of one CPU replica each, a global batch of 16
that 3 does not divide (tests/launch_scripts/cluster_files/train.py, 64 samples, no shuffle):
sim prints TensorFlow 2.21's losses (tf-keras, ``sim launch --engine tensorflow``, measured:
8.40332 1.34608 0.34802), every batch split [6, 6, 4] as TensorFlow's legacy rebatch splits it.
With 4 GPUs a worker (12 replicas) sim prints 9.87656: a different machine, not a different split."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRAIN = ROOT / "tests" / "launch_scripts" / "cluster_files" / "train.py"


def test_three_cpu_workers_give_tensorflows_losses(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAIN.read_text().replace("import tensorflow as tf", "import sim.tf as tf"))
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_USE_LEGACY_KERAS="1", SIM_LANG="en")
    env.pop("TF_CONFIG", None)
    p = subprocess.run([sys.executable, "-m", "sim", "launch", "--workers", "3", "--gpus-per-worker",
                        "0", str(script)], env=env, cwd=str(tmp_path), capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    losses = re.findall(r"TASK worker (\d) GPUS \S+ LOSS (.+)", p.stdout)
    assert sorted(w for w, _ in losses) == ["0", "1", "2"]
    # TensorFlow's numbers to float32 rounding: numpy sums float32 in another order with AVX2
    # than with AVX-512 (8.40331 on an AVX2-only EPYC), so the last printed digit may differ by 1.
    assert len({line.strip() for _, line in losses}) == 1           # every worker the same
    printed = [float(x) for x in losses[0][1].split()]
    assert printed == pytest.approx([8.40332, 1.34608, 0.34802], abs=1.5e-5)
