"""Mixed precision against TensorFlow 2.21 on CPU (issue 30): scenarios_precision.py, each scenario
in a process of its own, under Keras 3 (``tf`` against ``sim``) and tf-keras (``tf-keras2``
against ``sim-keras2``), compared as test_crosscheck.py compares (float32 rounding; float16 and
bfloat16 values are compared the same way: they are exact numbers of their dtype).
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import test_crosscheck as base  # noqa: E402
from scenarios_precision import ALONE  # noqa: E402

PAIRS = {"tf": "sim", "tf-keras2": "sim-keras2"}
# Where float16/bfloat16 results are compared within ulps of their dtype instead of float32
# rounding, and why (measured on TF 2.21, CPU; everything else in these scenarios is exact):
HALF_RTOL = {
    "mp_half_numerics": (2e-2, "TensorFlow's CPU softmax of float16/bfloat16 (Eigen's own exp) "
                               "and its float16 Sum (adds in float16, in Eigen's order) differ from "
                               "NumPy's by one ulp of the dtype: 2.4e-4 on float16 softmax values "
                               "near 0.2, 9.8e-4 on bfloat16's, 7.8e-3 on a float16 sum of 14.8"),
    "mp_fit_mirrored": (2e-3, "Keras 3's Dense adds its bias with AddV2, whose float16 gradient "
                              "is TensorFlow's float16 Sum (one ulp apart from NumPy's, above): "
                              "measured 2.6e-4 relative on a bias after 8 steps"),
    "mp_custom_loop_mirrored": (2e-3, "as mp_fit_mirrored: the float16 bias gradient's sum"),
}
_cache: dict = {}


def _result(framework, name):
    key = (framework, name)
    if key not in _cache:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_ENABLE_ONEDNN_OPTS="0",
                   CUDA_VISIBLE_DEVICES="",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        env.pop("TF_USE_LEGACY_KERAS", None)
        p = subprocess.run([sys.executable, str(HERE / "runner.py"), framework, name], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=600)
        lines = [x for x in p.stdout.splitlines() if x.startswith("CROSSCHECK-JSON ")]
        assert p.returncode == 0 and lines, p.stderr[-3000:]
        _cache[key] = json.loads(lines[-1].split(" ", 1)[1])[name]
    return _cache[key]


@pytest.mark.parametrize("framework", list(PAIRS))
@pytest.mark.parametrize("name", list(ALONE))
def test_mixed_precision_scenario(framework, name):
    if importlib.util.find_spec(base.REFERENCES[framework]) is None:
        pytest.skip(f"{base.REFERENCES[framework]} is not installed")
    ref, got = _result(framework, name), _result(PAIRS[framework], name)
    for side, r in (("TensorFlow", ref), ("sim", got)):
        if isinstance(r, dict) and "traceback" in r:
            pytest.fail(f"the scenario itself fails under {side}: {r['traceback']}")
    rtol = HALF_RTOL.get(name, (base.RTOL, ""))[0]
    saved, base.RTOL = base.RTOL, rtol
    try:
        diffs = base.compare(ref, got, [name])
    finally:
        base.RTOL = saved
    assert not diffs, f"sim differs from TensorFlow ({framework}):\n" + "\n".join(diffs)
