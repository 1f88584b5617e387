"""Model.predict under a launched 2-worker MultiWorkerMirroredStrategy gives every worker the full
predictions, in order: equal to ``model(x)`` (as TensorFlow does; tf_crosscheck/test_mwms_predict_tf.py
runs the same script on TensorFlow 2.21). Also strategy.gather across workers of equal pieces."""
from pathlib import Path

import numpy as np
import pytest

from sim.launch import launch

SCRIPTS = Path(__file__).with_name("launch_scripts")


@pytest.mark.parametrize("gpus", [1, 2])
def test_every_worker_gets_every_prediction(tmp_path, gpus):
    out = tmp_path / "run"
    result = launch(SCRIPTS / "mwms_predict.py", [out], workers=2, gpus_per_worker=gpus,
                    echo=False, timeout=100)
    assert result.returncode == 0, result.output
    saved = [np.load(f"{out}_worker_{k}.npz") for k in (0, 1)]
    for s in saved:
        assert s["numpy"].shape == s["dataset"].shape == (22, 2)
        np.testing.assert_allclose(s["numpy"], s["call"], rtol=0, atol=1e-6)
        np.testing.assert_allclose(s["dataset"], s["call"], rtol=0, atol=1e-6)
    np.testing.assert_array_equal(saved[0]["numpy"], saved[1]["numpy"])
    # every replica's piece, even when all pieces are equal (the fabric sends equal pieces once)
    assert saved[0]["equal_pieces"].tolist() == [7] * (2 * gpus)
