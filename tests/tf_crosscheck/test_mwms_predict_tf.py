"""tests/launch_scripts/mwms_predict.py on real TensorFlow 2.21 (``engine="tensorflow"``, 2 workers,
one CPU each): every worker's ``model.predict`` is the full ``model(x)``, the fact
tests/test_mwms_predict.py holds sim to. Measured: equal to the bit on both workers."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sim.launch import launch

pytest.importorskip("tensorflow")
SCRIPT = Path(__file__).resolve().parents[1] / "launch_scripts" / "mwms_predict.py"


def test_tensorflow_gives_every_worker_every_prediction(tmp_path):
    out = tmp_path / "run"
    result = launch(SCRIPT, [out], workers=2, echo=False, timeout=300, engine="tensorflow",
                    python=sys.executable)
    assert result.returncode == 0, result.output[-4000:]
    saved = [np.load(f"{out}_worker_{k}.npz") for k in (0, 1)]
    for s in saved:
        assert s["numpy"].shape == s["dataset"].shape == (22, 2)
        np.testing.assert_allclose(s["numpy"], s["call"], rtol=0, atol=1e-6)
        np.testing.assert_allclose(s["dataset"], s["call"], rtol=0, atol=1e-6)
        assert s["equal_pieces"].tolist() == [7, 7]
