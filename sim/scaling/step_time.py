"""Simulated time per step and time to target: the simulator turns steps into seconds.

A synchronous data-parallel step on ``replicas`` GPUs costs one replica's compute on its share
of the batch (the roofline time of its FLOPs and bytes, plus a launch overhead per op:
``sim.distribute.timing.compute_seconds``, what MirroredStrategy charges) and then the
all-reduce of the gradients (``sim.collectives``: NCCL's choice of algorithm replayed on the
machine's links). Time to target = steps to target at the global batch x that step time.

``measure_step_cost`` counts a real training step of a ``sim.tf`` Keras model with
``sim.engine.counting`` at two batch sizes; the cost is linear in the batch, so two points give
the per-example and the fixed part.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CLUSTER_GPUS_PER_NODE = 8


@dataclass(frozen=True)
class StepCost:
    """What one replica's training step costs, as a function of its batch ``b``."""
    flops_per_example: float
    bytes_per_example: float
    fixed_flops: float
    fixed_bytes: float
    ops: int
    parameter_bytes: int

    def flops(self, b) -> float:
        return self.fixed_flops + self.flops_per_example * b

    def bytes(self, b) -> float:
        return self.fixed_bytes + self.bytes_per_example * b


def measure_step_cost(build_model, input_dim: int, loss: str = "mse", small: int = 8,
                      large: int = 64) -> StepCost:
    """Count one SGD step of ``build_model()`` (a sim.tf Keras model) at two batch sizes."""
    import sim.tf as tf
    from sim.engine import counting

    counts = []
    for batch in (small, large):
        tf.keras.utils.set_random_seed(0)
        model = build_model()
        loss_fn = tf.keras.losses.get(loss)
        optimizer = tf.keras.optimizers.SGD(0.01)
        x = np.zeros((batch, input_dim), np.float32)
        outputs = int(model(x[:1]).shape[-1])
        y = np.zeros((batch, outputs), np.float32) if loss == "mse" else np.zeros((batch,), np.int64)
        with counting() as c:
            with tf.GradientTape() as tape:
                value = loss_fn(y, model(x))
            grads = tape.gradient(value, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        counts.append(c)
        params = sum(int(np.prod(v.shape)) for v in model.trainable_variables)
    a, b = counts
    per_flops = (b.flops - a.flops) / (large - small)
    per_bytes = (b.bytes - a.bytes) / (large - small)
    return StepCost(per_flops, per_bytes, a.flops - per_flops * small, a.bytes - per_bytes * small,
                    a.ops, 4 * params)


def course_machine(replicas: int, name: str = "dgx-a100-cluster"):
    """The machine that holds ``replicas`` GPUs: a cluster preset gets enough 8-GPU nodes."""
    from sim.hardware import preset
    if name.endswith("-cluster"):
        return preset(name, nodes=max(1, math.ceil(replicas / CLUSTER_GPUS_PER_NODE)))
    return preset(name)


def step_seconds(cost: StepCost, per_replica_batch: int, replicas: int, machine="dgx-a100-cluster",
                 algorithm: str = "nccl") -> tuple[float, float]:
    """(compute, all-reduce) seconds of one synchronous step on the first ``replicas`` GPUs."""
    from sim.collectives.compare import time_one
    from sim.distribute.timing import compute_seconds

    m = course_machine(replicas, machine) if isinstance(machine, str) else machine
    gpu = m.devices_of("GPU")[0]
    compute = compute_seconds(gpu, cost.flops(per_replica_batch), cost.bytes(per_replica_batch),
                              ops=cost.ops)
    reduce = 0.0 if replicas == 1 else time_one(algorithm, m, cost.parameter_bytes, p=replicas)["time_us"] * 1e-6
    return compute, reduce


@dataclass
class TimeToTarget:
    replicas: np.ndarray
    global_batch: np.ndarray
    steps: np.ndarray
    compute_seconds: np.ndarray    # per step
    allreduce_seconds: np.ndarray  # per step

    @property
    def step_seconds(self) -> np.ndarray:
        return self.compute_seconds + self.allreduce_seconds

    @property
    def seconds(self) -> np.ndarray:
        return self.steps * self.step_seconds


def time_to_target(steps_at, cost: StepCost, per_replica_batch: int, replica_counts,
                   machine="dgx-a100-cluster") -> TimeToTarget:
    """Simulated time to target for each replica count; ``steps_at(global_batch)`` -> steps."""
    replicas = np.asarray(replica_counts, int)
    batch = replicas * int(per_replica_batch)
    steps = np.array([float(steps_at(int(b))) for b in batch])
    parts = np.array([step_seconds(cost, per_replica_batch, int(r), machine) for r in replicas])
    return TimeToTarget(replicas, batch, steps, parts[:, 0], parts[:, 1])
