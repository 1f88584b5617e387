"""Keras 3 unless TF_USE_LEGACY_KERAS selects tf-keras: the same learner code run twice, in two
processes as TensorFlow decides once per process, sees each version's behaviour."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Keras' documented MeanIoU example with fractional weights: tf-keras prints 0.23809525; Keras 3
# counts the confusion matrix in integers (dtype "int"), the weights truncate to 0 and it prints 0.
SCENARIO = """
import sim.tf as tf
m = tf.keras.metrics.MeanIoU(num_classes=2)
m.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[0.3, 0.3, 0.3, 0.1])
print(float(m.result()), m.total_cm.dtype.name)
m = tf.keras.metrics.MeanIoU(num_classes=2)
m.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[1.5, 1.5, 1.5, 2.7])
print(float(m.result()))
"""


def _run(legacy):
    env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
    if legacy is not None:
        env["TF_USE_LEGACY_KERAS"] = legacy
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-c", SCENARIO], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    return float(out[0]), out[1], float(out[2])


@pytest.mark.parametrize("legacy", ["1", "true", "True"])
def test_tf_use_legacy_keras_selects_keras_2(legacy):
    first, dtype, second = _run(legacy)
    assert first == pytest.approx(0.23809525) and dtype == "float32"
    assert second == pytest.approx((1.5 / 4.5 + 2.7 / 5.7) / 2, rel=1e-6)


@pytest.mark.parametrize("legacy", [None, "0", "false"])
def test_keras_3_by_default(legacy):
    first, dtype, second = _run(legacy)
    assert first == 0.0 and dtype == "int64"
    assert second == pytest.approx((1 / 3 + 2 / 4) / 2, rel=1e-6)  # weights 1, 1, 1, 2
