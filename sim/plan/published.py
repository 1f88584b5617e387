"""Published time-to-accuracy results, to judge the planner against (never inputs of it).

Each row: a published run's hardware, recipe and minutes to its target, set up in the planner as
that run was (node preset, nodes, network, precision, the recipe its convergence data comes
from), the planner choosing only the batch per GPU among ``batches``. The convergence data the
recipes hold is from papers' tables and MLPerf's reference convergence points; the times below are
different numbers (wall-clock runs), so they judge the step times and the recipe together.

Sources:
* Goyal et al. 2017 (arXiv 1706.02677): ResNet-50, 256 P100 GPUs (32 Big Basin servers, 50 Gb
  Ethernet), batch 8192, "in one hour" (abstract); 8 GPUs at batch 256: "~29 hours" (§1).
* NVIDIA, "NVIDIA Performance on MLPerf 3.0 Training Benchmarks" (developer.nvidia.com,
  deep-learning-performance-training-inference/training): ResNet-50 v1.5 to 75.90 %, MXNet,
  mixed precision: 8x H100 13.466 min (3.0-2053), 64x H100 2.664 min (3.0-2071), 512x H100
  0.509 min (3.0-2068). MLPerf's closed division trains with LARS at these sizes.
* MLCommons, MLPerf Training v3.0 results, mlcommons/training_results_v3.0, NVIDIA's closed-division
  BERT result logs ``NVIDIA/results/<system>/bert/result_0..9.txt`` (PyTorch, NGC 23.04): each
  run's minutes are its ``run_stop`` minus ``run_start``; the figure is MLPerf's score, the mean of
  the 10 runs without the fastest and the slowest (an ``aborted`` run, which missed the target,
  counts as the slowest): dgxh100_ngc23.04_pytorch (8 H100, batch 768) 5.469 min;
  dgxh100_n8_ngc23.04_pytorch (64 H100, batch 4608) 0.898 min; dgxh100_n64_ngc23.04_pytorch
  (512 H100, batch 3072) 0.344 min. Their batch per GPU is set as the run's (96, 72, 6).
* Sergeev & Del Balso 2018 (arXiv:1802.05799), Fig. 1: standard distributed TensorFlow
  (parameter servers) wastes about half of 128 GPUs: judged by ``sim.scaleout.ps_scale``.
"""
from __future__ import annotations

GOYAL = "Goyal et al. 2017"
NVIDIA_MLPERF3 = "NVIDIA MLPerf 3.0 Training"
MLPERF3_LOGS = "MLPerf Training v3.0 result logs (NVIDIA)"

# (what, machine, nodes, network, precision, recipe, batches per GPU, published minutes, source)
TIME_TO_ACCURACY = [
    ("ResNet-50, 8 P100, batch 256", "big-basin", 1, None, "float32", "goyal-sgd", (32,), 29 * 60, GOYAL),
    ("ResNet-50, 256 P100, batch 8k", "big-basin", 32, "50gbe", "float32", "goyal-sgd", (32,), 60, GOYAL),
    ("ResNet-50 v1.5, 8 H100", "dgx-h100", 1, None, "mixed_float16", "mlperf-lars", (102, 204, 408),
     13.466, NVIDIA_MLPERF3),
    ("ResNet-50 v1.5, 64 H100", "dgx-h100", 8, "ndr-ib", "mixed_float16", "mlperf-lars", (102, 204, 408),
     2.664, NVIDIA_MLPERF3),
    ("ResNet-50 v1.5, 512 H100", "dgx-h100", 64, "ndr-ib", "mixed_float16", "mlperf-lars", (102, 204, 408),
     0.509, NVIDIA_MLPERF3),
    ("BERT-Large, 8 H100, batch 768", "dgx-h100", 1, None, "mixed_float16", "mlperf-lamb", (96,),
     5.469, MLPERF3_LOGS),
    ("BERT-Large, 64 H100, batch 4608", "dgx-h100", 8, "ndr-ib", "mixed_float16", "mlperf-lamb", (72,),
     0.898, MLPERF3_LOGS),
    ("BERT-Large, 512 H100, batch 3072", "dgx-h100", 64, "ndr-ib", "mixed_float16", "mlperf-lamb", (6,),
     0.344, MLPERF3_LOGS),
]


def planned(row) -> dict:
    """The planner's fastest plan for one published setting."""
    from .candidates import grid
    from .ranking import make_plan
    from .recipes import recipe as recipe_named
    from .step_time import model_step
    what, machine, nodes, net, precision, recipe, batches, minutes, source = row
    model = recipe_named(recipe).model
    cands = grid((machine,), (nodes,), (net,), strategies=("mirrored-nccl",), batch_per_device=batches)
    plan = make_plan(lambda c: model_step(model, c, precision), recipe, cands, price=1.0)
    best = plan.fastest
    got = best.seconds / 60
    return {"what": what, "recipe": recipe, "published_min": minutes, "planned_min": got,
            "batch": best.candidate.update_batch, "status": best.status, "epochs": best.epochs,
            "error": (got - minutes) / minutes, "source": source}


def comparison() -> list:
    return [planned(row) for row in TIME_TO_ACCURACY]
