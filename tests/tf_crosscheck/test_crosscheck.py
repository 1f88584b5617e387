"""Fidelity cross-check: the scenarios of scenarios.py under real TensorFlow and under sim.tf.

Not part of ``make test`` (conftest.py here ignores this file unless tests/tf_crosscheck is named on
the command line). Run it from a virtualenv that has TensorFlow 2.21 and this project:

    python3 -m venv /tmp/tfvenv
    /tmp/tfvenv/bin/pip install 'tensorflow-cpu==2.21.*' tf-keras==2.21.* pytest
    /tmp/tfvenv/bin/pip install -e .
    /tmp/tfvenv/bin/python -m pytest tests/tf_crosscheck -v
    CROSSCHECK_SCENARIOS="tape_higher_order" /tmp/tfvenv/bin/python -m pytest tests/tf_crosscheck  # only these

Each framework runs every scenario once in its own subprocess (runner.py); the references are
TensorFlow with its default tf.keras (Keras 3) and, when tf-keras is installed, TensorFlow with
TF_USE_LEGACY_KERAS=1 (Keras 2, the tf.keras sim.keras follows). Numbers must agree within float32
rounding, ints/strings/shapes exactly, errors by exception class and message. Expected differences
and known sim bugs are listed below with their reasons.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from scenarios import SCENARIOS  # noqa: E402
from scenarios_lessons import ALONE  # noqa: E402

# float32 rounding: the frameworks sum replicas and batches in different orders, so results may
# differ in the last bits (seen: 2 ulp on a loss after one step, 1e-8 on weights after 5 steps).
RTOL, ATOL = 1e-6, 1e-7

# Expected differences: (scenario, key) -> reason. At these places only the exception class is
# compared, not the message.
MESSAGE_DIFFERS = {
    ("data_padding_windows_interleave", "padded_batch too small"):
        "TensorFlow wraps the kernel's text in '{{function_node __wrapped__IteratorGetNext...}} ... "
        "[Op:IteratorGetNext] name: '; sim starts with the same sentence ('Attempted to pad to a "
        "smaller size than the input element.') and adds the shapes and the fix. Same class "
        "(DataLossError).",
}

# Known sim bugs: (scenario, key) -> description. Each is an xfail(strict=True) test of its own, so
# fixing the bug turns it into an XPASS failure: then delete the entry.
KNOWN_SIM_BUGS: dict = {  # (scenario, key) -> why sim differs
}

REFERENCES = {
    "tf": "tensorflow",          # tf.keras is Keras 3
    "tf-keras2": "tf_keras",     # TF_USE_LEGACY_KERAS=1
}


def _run(framework, only=None):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_ENABLE_ONEDNN_OPTS="0", CUDA_VISIBLE_DEVICES="",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("TF_USE_LEGACY_KERAS", None)
    if only is None:
        only = os.environ.get("CROSSCHECK_SCENARIOS", "").split()  # run just these (and test them)
    proc = subprocess.run([sys.executable, str(HERE / "runner.py"), framework, *only], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("CROSSCHECK-JSON ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"runner.py {framework} failed (rc {proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(lines[-1].split(" ", 1)[1])


_cache = {}


def results(framework):
    if framework not in _cache:
        _cache[framework] = _run(framework)
    return _cache[framework]


def _available(framework):
    return importlib.util.find_spec(REFERENCES[framework]) is not None


def _is_error(x):
    return isinstance(x, dict) and "__error__" in x


def compare(ref, got, path, messages=True):
    """Differences between a reference result and sim's, as readable strings."""
    where = " > ".join(path) or "(result)"
    if _is_error(ref) or _is_error(got):
        if not (_is_error(ref) and _is_error(got)):
            return [f"{where}: TensorFlow {_show(ref)} vs sim {_show(got)}"]
        out = []
        if ref["__error__"] != got["__error__"]:
            out.append(f"{where}: TensorFlow raises {ref['__error__']}, sim {got['__error__']}")
        if messages and tuple(path[:2]) not in MESSAGE_DIFFERS and ref["message"] != got["message"]:
            out.append(f"{where}: message\n  TensorFlow: {ref['message']!r}\n  sim:        {got['message']!r}")
        return out
    if isinstance(ref, dict):
        if not isinstance(got, dict) or set(ref) != set(got):
            return [f"{where}: keys {sorted(ref)} vs {sorted(got) if isinstance(got, dict) else got!r}"]
        return [d for k in ref for d in compare(ref[k], got[k], path + [k], messages)]
    if isinstance(ref, list):
        if not isinstance(got, list) or len(ref) != len(got):
            return [f"{where}: TensorFlow {ref!r} vs sim {got!r}"]
        if all(isinstance(v, (int, float)) for v in ref + got) and ref and any(
                isinstance(v, float) for v in ref):
            a, b = np.asarray(ref, float), np.asarray(got, float)
            if not np.allclose(b, a, rtol=RTOL, atol=ATOL):
                return [f"{where}: TensorFlow {ref} vs sim {got} (max |diff| {np.max(np.abs(a - b)):.3g})"]
            return []
        return [d for i, (r, g) in enumerate(zip(ref, got)) for d in compare(r, g, path + [str(i)], messages)]
    if isinstance(ref, float) or isinstance(got, float):
        if not isinstance(got, (int, float)) or not np.isclose(got, ref, rtol=RTOL, atol=ATOL):
            return [f"{where}: TensorFlow {ref!r} vs sim {got!r}"]
        return []
    return [] if ref == got else [f"{where}: TensorFlow {ref!r} vs sim {got!r}"]


def _show(x):
    return f"raises {x['__error__']}: {x['message']}" if _is_error(x) else f"returns {x!r}"


# sim runs under the same Keras selection as its reference (TF_USE_LEGACY_KERAS for tf-keras2).
SIM_FOR = {"tf": "sim", "tf-keras2": "sim-keras2"}


def _scenario_diffs(framework, name):
    ref, got = results(framework)[name], results(SIM_FOR[framework])[name]
    if _is_error(ref) and "traceback" in ref:
        pytest.fail(f"the scenario itself fails under {framework}: {ref['traceback']}")
    if _is_error(got) and "traceback" in got:
        pytest.fail(f"the scenario itself fails under sim: {got['traceback']}")
    return ref, got


@pytest.fixture(params=list(REFERENCES))
def framework(request):
    if not _available(request.param):
        pytest.skip(f"{REFERENCES[request.param]} is not installed in {sys.executable}")
    return request.param


_ONLY = os.environ.get("CROSSCHECK_SCENARIOS", "").split()


@pytest.mark.parametrize("name", [n for n in SCENARIOS if not _ONLY or n in _ONLY])
def test_scenario(framework, name):
    ref, got = _scenario_diffs(framework, name)
    diffs = [d for d in compare(ref, got, [name])
             if not any(d.startswith(" > ".join(bug)) for bug in KNOWN_SIM_BUGS)]
    assert not diffs, f"sim differs from TensorFlow ({framework}):\n" + "\n".join(diffs)


@pytest.mark.parametrize("bug", [b for b in KNOWN_SIM_BUGS if not _ONLY or b[0] in _ONLY],
                         ids=" > ".join)
def test_known_sim_bug(framework, bug):
    name, key = bug
    ref, got = _scenario_diffs(framework, name)
    diffs = compare(ref[key], got[key], [name, key])
    if diffs:
        pytest.xfail(KNOWN_SIM_BUGS[bug] + "\n" + "\n".join(diffs))
    pytest.fail(f"fixed in sim? {name} > {key} now matches TensorFlow: remove it from KNOWN_SIM_BUGS")


_alone_cache: dict = {}


@pytest.mark.parametrize("name", [n for n in ALONE if not _ONLY or n in _ONLY])
def test_scenario_alone(framework, name):
    """A scenario that needs a fresh process (scenarios_lessons.ALONE): each framework runs it alone."""
    for side in (framework, SIM_FOR[framework]):
        if (side, name) not in _alone_cache:
            _alone_cache[side, name] = _run(side, [name])[name]
    ref, got = _alone_cache[framework, name], _alone_cache[SIM_FOR[framework], name]
    for who, r in (("TensorFlow", ref), ("sim", got)):
        if _is_error(r) and "traceback" in r:
            pytest.fail(f"the scenario itself fails under {who}: {r['traceback']}")
    diffs = compare(ref, got, [name])
    assert not diffs, f"sim differs from TensorFlow ({framework}):\n" + "\n".join(diffs)
