"""Parameter servers at scale, in closed form: every worker's pulls and pushes on each PS task's
NIC, and one RPC per variable, each with its latency and the PS task's CPU.

Layout (TF's usual one): ``ps`` tasks, one per node on the first ``ps`` nodes, each holding 1/ps of
every variable's bytes (round-robin, balanced), ``g`` workers (GPUs) per node, ``N`` in all. Per
step a worker PULLS the model (S bytes, 1/ps from each task) during its forward pass and PUSHES its
gradients (S bytes) during its backward pass. In the read phase a PS node's NIC sends its task's
shards to the remote workers and receives its own workers' shards from the remote tasks:

    out: (N - g) x S / ps          in: g x S x (ps - 1) / ps

and in the push phase the same with the directions swapped. The NIC is full duplex, so a phase
takes ``max(out, in) / bandwidth``.
Synchronous training (TF1's SyncReplicasOptimizer) cannot read step t+1's weights before every
push of step t is applied, so the phases do not overlap across steps:

    step = max(forward, read phase) + max(backward, push phase) + rpc_cpu

``rpc_cpu``: each variable is one RPC per worker per direction; a PS task handles
2 N V / ps of them per step on ``RPC_THREADS`` threads at ``RPC_CPU`` seconds each, plus one
network latency per layer on the critical path of the forward pass. ASSUMED (not measured here,
no published per-RPC figure was found for TF's gRPC): RPC_CPU = 20 µs, RPC_THREADS = 1 (TF's gRPC
server drains its completion queue on one polling thread per service), V = 2 variables per layer
(kernel and bias or batch-norm offset). The result is judged against the Horovod paper's Fig. 1
(standard distributed TensorFlow at 128 GPUs: about half the GPUs' throughput), never fitted to it.
"""
from __future__ import annotations

from dataclasses import dataclass

RPC_CPU = 20e-6
RPC_THREADS = 1
VARIABLES_PER_LAYER = 2


@dataclass(frozen=True)
class PsStep:
    read_bytes: float          # per node NIC, per direction, in the read phase
    push_bytes: float
    read_seconds: float
    push_seconds: float
    rpcs_per_task: float
    rpc_seconds: float
    step_seconds: float
    compute_seconds: float

    @property
    def efficiency(self) -> float:
        return self.compute_seconds / self.step_seconds


def nic_bytes(model_bytes: float, workers: int, gpus_per_node: int, ps: int) -> float:
    """Bytes on the busier direction of one PS node's NIC in one phase (module docstring)."""
    serve = (workers - gpus_per_node) * model_bytes / ps
    own = gpus_per_node * model_bytes * (ps - 1) / ps
    return max(serve, own)


def ps_step(model, compute_forward: float, compute_backward: float, workers: int,
            gpus_per_node: int, ps: int, bandwidth: float, latency: float) -> PsStep:
    """One synchronous PS step of ``model`` (a sim.workloads model) in closed form."""
    size = float(model.gradient_bytes)
    layers = sum(1 for layer in model.layers if layer.params)
    per_phase = nic_bytes(size, workers, gpus_per_node, ps) if workers > gpus_per_node else 0.0
    phase_seconds = per_phase / bandwidth
    rpcs = 2 * workers * layers * VARIABLES_PER_LAYER / ps
    rpc_seconds = rpcs * RPC_CPU / RPC_THREADS + layers * latency
    step = (max(compute_forward, phase_seconds) + max(compute_backward, phase_seconds) + rpc_seconds)
    compute = compute_forward + compute_backward
    return PsStep(per_phase, per_phase, phase_seconds, phase_seconds, rpcs, rpc_seconds, step, compute)


def horovod_fig1(model_name: str, batch_per_device: int = 64) -> PsStep:
    """The Horovod paper's Fig. 1 setting: standard distributed TensorFlow on 128 Pascal GPUs,
    32 servers of 4 on 25 GbE (TCP), one PS task per server (Sergeev & Del Balso 2018)."""
    from sim.hardware import preset
    from sim.hardware.networks import NETWORKS
    from sim.workloads import workload
    from .step import device_rate
    model = workload(model_name)
    node = preset("pascal-pcie-4gpu")
    rate = device_rate(model, node.gpus[0])
    forward = model.forward_flops * batch_per_device / rate
    backward = sum(layer.backward_flops for layer in model.layers) * batch_per_device / rate
    net = NETWORKS["25gbe"]
    return ps_step(model, forward, backward, workers=128, gpus_per_node=4, ps=32,
                   bandwidth=net.bandwidth, latency=net.latency)


HOROVOD_FIG1 = {"inception_v3": 0.5, "resnet101": 0.5}    # "about half" at 128 GPUs
