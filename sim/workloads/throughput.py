"""What fraction of a device's peak FLOP/s a model family achieves: a stated, cited assumption.

A simulated step computes for ``flops / (peak[dtype] x fraction)``. The fraction is never fitted
to a scaling result: it comes from a published ONE-device training throughput, converted with our
own FLOPs per sample (so it moves if the FLOP count does):

    fraction = samples/s (1 device) x training FLOPs per sample / peak FLOP/s

Sources:
* Tesla P100 (SXM2, float32): tensorflow.org "Benchmarks" page (TF 1.x tf_cnn_benchmarks, 2017,
  "Details for NVIDIA DGX-1 (NVIDIA Tesla P100)", synthetic data, 1 GPU): ResNet-50 219
  images/s, Inception V3 142, VGG16 154 (batch 64 each), AlexNet 2987 (batch 512). -> about 0.51,
  0.46, 1.35 and 1.21 of 10.6 TFLOP/s. A "fraction" above 1 is no error: cuDNN computes VGG's and
  AlexNet's convolutions with Winograd or FFT algorithms, which need fewer multiplications than
  the direct count of ``sim.workloads.base``; the measured rate is what a step takes.
* ASSUMED, not sourced here: transformers (large matrix products) 0.5; other devices achieve the
  same fraction of their own float32 peak as the P100 does. Those are labelled "assumed" in
  ``achieved()``'s answer so a lesson can say so.
"""
from __future__ import annotations

P100_SXM2_FP32 = 10.6e12        # NVIDIA Tesla P100 data sheet (SXM2, NVLink), float32

# (model name, published single-device samples/s, source) per family, on the P100 SXM2 in float32.
MEASURED_P100 = {
    "resnet": ("resnet50", 219.0, "tensorflow.org Benchmarks, DGX-1 P100, 1 GPU, synthetic, batch 64"),
    "inception": ("inception_v3", 142.0, "tensorflow.org Benchmarks, DGX-1 P100, 1 GPU, synthetic, batch 64"),
    "vgg": ("vgg16", 154.0, "tensorflow.org Benchmarks, DGX-1 P100, 1 GPU, synthetic, batch 64"),
    "alexnet": ("alexnet", 2987.0, "tensorflow.org Benchmarks, DGX-1 P100, 1 GPU, synthetic, batch 512"),
}
ASSUMED_FRACTION = {"transformer": 0.5}


def achieved(family: str, device=None) -> dict:
    """``{"fraction", "dtype", "source", "assumed"}`` for ``family`` on ``device`` (any device:
    the P100-derived fraction of its float32 peak, see the module docstring)."""
    from sim.workloads import workload
    if family in MEASURED_P100:
        model, rate, source = MEASURED_P100[family]
        fraction = rate * workload(model).flops / P100_SXM2_FP32
        assumed = device is not None and "P100" not in str(getattr(device, "model", device))
        return {"fraction": fraction, "dtype": "float32", "source": source, "assumed": assumed}
    base = ASSUMED_FRACTION[family]
    if isinstance(base, str):
        out = dict(achieved(base, device))
        out.update(assumed=True, source=f"assumed: as {base} ({out['source']})")
        return out
    return {"fraction": base, "dtype": "float32", "source": "assumed", "assumed": True}
