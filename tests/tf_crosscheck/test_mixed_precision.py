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
    diffs = base.compare(ref, got, [name])
    assert not diffs, f"sim differs from TensorFlow ({framework}):\n" + "\n".join(diffs)
