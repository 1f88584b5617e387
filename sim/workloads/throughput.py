"""Published one-GPU training rates: the judge of the roofline (``sim.workloads.roofline``), never
its input. Model mode once took its compute speed from the P100 rates below; now they are a check
beside every other generation's, in docs/published_comparison.md (``single_gpu_rows()``).

Sources (training, synthetic data, images/s on one GPU):
* K80 (Kepler) and P100 (Pascal), float32: tensorflow.org "Benchmarks" (TF 1.x tf_cnn_benchmarks,
  May 2017; tensorflow/docs ``site/en/r1/guide/performance/benchmarks.md``), "Details for Google
  Compute Engine (NVIDIA Tesla K80)" and "Details for NVIDIA DGX-1 (NVIDIA Tesla P100)", at the
  page's batch per GPU.
* V100 (Volta) FP32 / AMP and A100 (Ampere) TF32 / AMP: NVIDIA DeepLearningExamples,
  ``TensorFlow/Classification/ConvNets/resnet50v1.5/README.md`` (TF 20.06-tf1 container, XLA on,
  "Training performance", 1 GPU): DGX-1 V100 16G 412 (FP32, batch 128) and 1270 (AMP, batch 256);
  DGX A100 40GB 808 (TF32) and 1770 (AMP), batch 256 (commit e6757d7; a later revision of the same
  README, commit 1d4211f, prints 909 and 2375).
No H100 single-GPU training rate for these models was found to cite; the H100 row is the
simulator's alone.
"""
from __future__ import annotations

TF_PAGE = "tensorflow.org Benchmarks (tf_cnn_benchmarks, May 2017), synthetic data"
DLE = "NVIDIA DeepLearningExamples RN50 v1.5 TF README (20.06-tf1, XLA), commit e6757d7"

# (model, device model, precision, batch per GPU, published images/s, source)
PUBLISHED_ONE_GPU = [
    ("resnet50", "K80-GK210", "float32", 64, 51.9, TF_PAGE),
    ("inception_v3", "K80-GK210", "float32", 64, 30.5, TF_PAGE),
    ("vgg16", "K80-GK210", "float32", 32, 35.4, TF_PAGE),
    ("alexnet", "K80-GK210", "float32", 512, 656.0, TF_PAGE),
    ("resnet50", "P100-SXM2-16GB", "float32", 64, 219.0, TF_PAGE),
    ("resnet50", "P100-SXM2-16GB", "float32", 32, 195.0, TF_PAGE),
    ("inception_v3", "P100-SXM2-16GB", "float32", 64, 142.0, TF_PAGE),
    ("resnet152", "P100-SXM2-16GB", "float32", 64, 91.8, TF_PAGE),
    ("vgg16", "P100-SXM2-16GB", "float32", 64, 154.0, TF_PAGE),
    ("alexnet", "P100-SXM2-16GB", "float32", 512, 2987.0, TF_PAGE),
    ("resnet50", "V100-SXM2-16GB", "float32", 128, 412.0, DLE),
    ("resnet50", "V100-SXM2-16GB", "mixed_float16", 256, 1270.0, DLE),
    ("resnet50", "A100-SXM4-40GB", "tf32", 256, 808.0, DLE),
    ("resnet50", "A100-SXM4-40GB", "mixed_float16", 256, 1770.0, DLE),
    ("resnet50", "H100-SXM5-80GB", "tf32", 256, None, "none found"),
    ("resnet50", "H100-SXM5-80GB", "mixed_float16", 256, None, "none found"),
]


def single_gpu_rows() -> list:
    """Each published one-GPU rate beside the roofline's, with the simulator's error."""
    from sim.hardware.devices import SPECS
    from sim.hardware.machine import Machine
    from sim.workloads import workload
    from sim.workloads.roofline import compute_times
    out = []
    for model, device, precision, batch, published, source in PUBLISHED_ONE_GPU:
        gpu = Machine("one").add_device("GPU", SPECS[device])
        times = compute_times(workload(model), gpu, precision, batch)
        rate = batch / times.total
        out.append({"model": model, "device": device, "precision": precision, "batch": batch,
                    "published": published, "simulated": rate, "dtype": times.dtype,
                    "unit": times.unit, "memory_bound": times.memory_bound / times.total,
                    "error": None if published is None else rate / published - 1, "source": source})
    return out
