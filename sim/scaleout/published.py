"""Published framework measurements to judge the simulator against, and how to set it up for each.

These figures are never inputs of the model (compute comes from the roofline,
``sim.workloads.roofline``; even the one-GPU rates are checks, ``sim.workloads.throughput``): they
are what the simulator's answers are compared with,
in docs/published_comparison.md and lesson 09. Each row says which framework mechanism the run
used, so the simulator is set up as that framework ran, not as it would fit best.

Sources:
* TF: tensorflow.org "Benchmarks" (TF 1.x, tf_cnn_benchmarks, May 2017; tensorflow/docs
  ``site/en/r1/guide/performance/benchmarks.md``), "Details for NVIDIA DGX-1 (NVIDIA Tesla
  P100)", training synthetic data, images/s at 1 and 8 GPUs; batch 64 (AlexNet 512).
  InceptionV3, ResNet-50, ResNet-152: ``variable_update=parameter_server``,
  ``local_parameter_device=cpu``; AlexNet, VGG16: ``replicated (with NCCL)``, which in TF 1.x
  (hash b1e174e) was ``tf.contrib.nccl``'s NCCL 1: ``nccl1`` (``sim.scaleout.comm``).
* Horovod: the README chart of Horovod commit 8318a898 (2018-05-10) and Sergeev & Del Balso,
  "Horovod: fast and easy distributed deep learning in TensorFlow", arXiv:1802.05799 (2018) §8: 128 servers with 4 Pascal
  GPUs each on 25 Gb/s RoCE, 512 GPUs: 90 % scaling efficiency for Inception V3 and ResNet-101,
  68 % for VGG-16; §8 / Fig. 7: RDMA over TCP on the same 25 GbE, "about 30 %" more for VGG-16,
  3-4 % for Inception V3 and ResNet-101 (the paper's figure; read as a ratio of throughputs).
"""
from __future__ import annotations

from .reduction import HOROVOD_2018

TF_PAGE = "tensorflow.org Benchmarks, DGX-1 (8x P100), synthetic, May 2017"
HOROVOD_PAPER = "Sergeev & Del Balso 2018 (arXiv:1802.05799), Horovod README"
# tf_cnn_benchmarks in graph mode: each gradient reduced (or sent to the CPU) as soon as it exists
TF_CNN_PS = {"machine": "dgx1-p100", "gpus": [8], "strategy": "central-storage", "overlap": True,
             "bucket_mb": 0}
TF_CNN_NCCL = {"machine": "dgx1-p100", "gpus": [8], "strategy": "nccl1", "bucket_mb": 0}
HOROVOD_512 = {"machine": "pascal-pcie-4gpu", "nodes": [128], "network": "25gbe-roce",
               "strategy": "horovod", **HOROVOD_2018}

# (benchmark, model, what the framework did (a key of lesson09.judge_how_*), simulator settings,
#  published efficiency, source)
PUBLISHED = [
    ("TF DGX-1 x8", "inception_v3", "tf_cnn_ps", TF_CNN_PS, 1131 / (8 * 142), TF_PAGE),
    ("TF DGX-1 x8", "resnet50", "tf_cnn_ps", TF_CNN_PS, 1734 / (8 * 219), TF_PAGE),
    ("TF DGX-1 x8", "resnet152", "tf_cnn_ps", TF_CNN_PS, 716 / (8 * 91.8), TF_PAGE),
    ("TF DGX-1 x8", "vgg16", "tf_cnn_nccl", TF_CNN_NCCL, 1081 / (8 * 154), TF_PAGE),
    ("TF DGX-1 x8", "alexnet", "tf_cnn_nccl", {**TF_CNN_NCCL, "batch_per_device": 512},
     17822 / (8 * 2987), TF_PAGE),
    ("Horovod x512", "inception_v3", "horovod_2018", HOROVOD_512, 0.90, HOROVOD_PAPER),
    ("Horovod x512", "resnet101", "horovod_2018", HOROVOD_512, 0.90, HOROVOD_PAPER),
    ("Horovod x512", "vgg16", "horovod_2018", HOROVOD_512, 0.68, HOROVOD_PAPER),
]
# Horovod §8: throughput with RDMA / with TCP on the same 25 GbE
RDMA_OVER_TCP = {"vgg16": 1.30, "inception_v3": 1.035, "resnet101": 1.035}


def simulated(model: str, settings: dict, **override) -> dict:
    """The simulator's row for one published setting (``override``: e.g. another network)."""
    from .sweep import scale
    options = {**settings, **override}
    return scale(model, **options)[0]


# What Keras's Model.fit runs today for the strategy a framework used then
KERAS_TODAY = {"horovod": "ring", "nccl1": "nccl"}


def comparison() -> list:
    """Every published row with the simulator's efficiency as the framework ran it, and the
    TensorFlow Keras default for the same strategy (after backward, one pack). The NCCL rows of
    tf_cnn_benchmarks also get ``no_overlap``: the same run with every all-reduce after backward,
    the bound their real overlap lay above (``sim.scaleout.comm``: TF 1.x's NCCL op made its
    stream wait for all the work queued on the GPU's compute stream when the last tower arrived)."""
    out = []
    for bench, model, how, settings, published, source in PUBLISHED:
        row = simulated(model, settings)
        keras = {k: v for k, v in settings.items() if k not in ("overlap", "bucket_mb", "cycle_ms",
                                                                "negotiation")}
        keras["strategy"] = KERAS_TODAY.get(keras["strategy"], keras["strategy"])
        no_overlap = simulated(model, settings, overlap=False) if how == "tf_cnn_nccl" else None
        out.append({"benchmark": bench, "model": model, "how": how, "published": published,
                    "source": source, "simulated": row["efficiency"],
                    "keras_default": simulated(model, keras)["efficiency"],
                    "no_overlap": no_overlap and no_overlap["efficiency"],
                    "communication_ms": row["communication_ms"],
                    "mechanisms": row["mechanisms"]})
    return out
