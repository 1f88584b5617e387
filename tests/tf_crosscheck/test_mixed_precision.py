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

import numpy as np
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
    "mp_half_numerics": (1e-3, "TensorFlow's float16 Sum adds in float16 in Eigen's order, NumPy "
                               "in float32: one float16 ulp apart (measured: 14.8046875 against "
                               "14.796875, 5.3e-4 relative)"),
    "mp_fit_mirrored": (2e-3, "Keras 3's Dense adds its bias with AddV2, whose float16 gradient "
                              "is that float16 Sum: measured 2.6e-4 relative on a bias after 8 "
                              "steps (tf-keras's BiasAddGrad accumulates in float32, as sim)"),
    "mp_custom_loop_mirrored": (2e-3, "as mp_fit_mirrored: the float16 bias gradient's sum"),
}

_cache: dict = {}


def eigen_half_softmax(logits, dtype=np.float16) -> list:
    """Softmax as Eigen's half-precision kernel computes it, every step rounded to ``dtype``
    (float16 or bfloat16): shift by the max, exp, sum, inverse, multiply
    (``tensorflow/core/kernels/softmax_op_functor.h``)."""
    h = dtype
    x = np.asarray(logits, dtype=np.float32).astype(h)
    shifted = (x.astype(np.float32) - x.max(axis=-1, keepdims=True).astype(np.float32)).astype(h)
    e = np.exp(shifted.astype(np.float32)).astype(h)
    total = np.zeros(e.shape[:-1] + (1,), h)
    for i in range(e.shape[-1]):
        total = (total.astype(np.float32) + e[..., i:i + 1].astype(np.float32)).astype(h)
    inverse = (np.float32(1) / total.astype(np.float32)).astype(h)
    return (e.astype(np.float32) * inverse.astype(np.float32)).astype(h).astype(np.float32).tolist()


def eigen_bfloat16_matmul(x, w) -> list:
    """bfloat16 MatMul without oneDNN: the float32 product cut to bfloat16 by TensorFlow's
    ``FloatToBFloat16`` (``tensorflow/core/framework/bfloat16.cc``), which keeps the upper 16 bits:
    truncation, where oneDNN (and sim) round to nearest."""
    bf16 = _bfloat16()
    product = np.asarray(x, np.float32).astype(bf16).astype(np.float32) @ \
        np.asarray(w, np.float32).astype(bf16).astype(np.float32)
    return (product.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32).tolist()


def cpu_dispatch(name, ref, got) -> None:
    """TensorFlow's half-precision kernels on CPU depend on the CPU. float16 Softmax: oneDNN
    computes it in float32 and rounds once (as sim) where the CPU has AVX512-FP16 (Intel Sapphire
    Rapids and later); on others (measured: AMD EPYC Zen 4, avx512_bf16 but no avx512_fp16)
    Eigen's kernel runs and rounds every step to float16, 2 float16 ulps off. bfloat16 MatMul and
    Softmax: on a CPU without AVX-512 (measured: an AVX2-only AMD EPYC) oneDNN has no bfloat16
    kernels, and Eigen's run: MatMul truncates its float32 product, Softmax rounds every step to
    bfloat16 (all 12 products and 24 probabilities of the scenario, exactly). Where TensorFlow gave
    Eigen's numbers exactly, sim's one-rounding answer is TensorFlow's on the other CPUs: compare
    that instead."""
    if name != "mp_half_numerics" or not isinstance(ref, dict):
        return
    from scenarios_precision import F16_W, F16_X
    eigen = {("float16", "softmax"): lambda: eigen_half_softmax(F16_X),
             ("bfloat16", "softmax"): lambda: eigen_half_softmax(F16_X, _bfloat16()),
             ("bfloat16", "matmul"): lambda: eigen_bfloat16_matmul(F16_X, F16_W)}
    for (dtype, op), kernel in eigen.items():
        if dtype in ref and ref[dtype][op] != got[dtype][op] and \
                np.allclose(ref[dtype][op], kernel(), rtol=0, atol=0):
            ref[dtype][op] = got[dtype][op]


def _bfloat16():
    """ml_dtypes' bfloat16, imported when a bfloat16 kernel is checked (over a second to import)."""
    import ml_dtypes
    return ml_dtypes.bfloat16


def _result(framework, name):
    key = (framework, name)
    if key not in _cache:
        # oneDNN on, TensorFlow's x86 default: its half-precision kernels then compute in float32
        # and round once (measured: bfloat16 MatMul, float16/bfloat16 Softmax), as sim does;
        # with TF_ENABLE_ONEDNN_OPTS=0 Eigen's own kernels truncate bfloat16 MatMul results
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_ENABLE_ONEDNN_OPTS="1",
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
    cpu_dispatch(name, ref, got)
    rtol = HALF_RTOL.get(name, (base.RTOL, ""))[0]
    saved, base.RTOL = base.RTOL, rtol
    try:
        diffs = base.compare(ref, got, [name])
    finally:
        base.RTOL = saved
    assert not diffs, f"sim differs from TensorFlow ({framework}):\n" + "\n".join(diffs)
