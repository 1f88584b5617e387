"""Will it scale? A data-parallel training step of a described model, simulated on a cluster.

``scale(...)`` (``sim.scaleout.sweep``) gives scaling curves; ``simulate_step`` (``step``) one
step with its timeline; ``buckets`` (tensor fusion), ``comm`` (per-strategy synchronisation time
on ``sim.collectives`` / ``sim.des``), ``ranks`` (NVLink ring order); ``reduction`` (when each
framework reduces), ``horovod`` (its cycles), ``cpu_variables`` (weights read over PCIe),
``contention`` (compute slowed by NCCL's SMs), ``mechanisms`` (what shaped a step, in words),
``published`` (measurements to judge the model against).
"""
from .buckets import Bucket, buckets
from .comm import STRATEGIES, Communicator
from .step import Step, simulate_step
from .sweep import scale

__all__ = ["Bucket", "buckets", "STRATEGIES", "Communicator", "Step", "simulate_step", "scale"]
