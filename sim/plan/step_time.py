"""Time per step of a candidate, in model mode: ``sim.scaleout.simulate_step`` (the simulated
step of a described model on that cluster), as ``sim.scaleout.scale`` calls it.

The plan calls only sim.scaleout's public functions, so however it makes a step's time, the
plan uses it. Clusters and ``Communicator`` s (which cache each bucket size's synchronisation
time) are kept per (cluster, strategy): the candidates that differ only in their batch per device,
or in sync against async parameter servers, share one, so a plan over 200 candidates simulates
each distinct synchronisation once.

Two things the simulated step of identical GPUs leaves out are added here:

- synchronous parameter servers (``ps-sync``, TF1 history): the step is at least the closed form
  of ``sim.scaleout.ps_scale`` (every worker's pulls and pushes on each PS node's NIC, one RPC per
  variable), the read and push phases unable to overlap across steps;
- stragglers (``sim.plan.stragglers``): a synchronous step's compute lasts E[X_(N:N+b)] computes
  (b backup workers), an asynchronous worker's E[X]; ``stragglers=None``: identical GPUs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .candidates import STRATEGIES, Candidate


@dataclass(frozen=True)
class StepTime:
    seconds: float       # one step (async: one worker's step, between two of its updates)
    compute: float
    communication: float
    source: str          # "simulated" (model mode) or "measured" (a launched run)


@lru_cache(maxsize=256)
def _cluster(machine, nodes: int, network):
    from sim.scaleout.sweep import cluster_of
    return cluster_of(machine, nodes, network)


@lru_cache(maxsize=1024)
def _communicator(machine, nodes: int, network, gpus: int, strategy: str, ps: int):
    from sim.scaleout import Communicator
    from sim.scaleout.ranks import ring_ranks
    m = _cluster(machine, nodes, network)
    return m, Communicator(m, ring_ranks(m, nodes=nodes, gpus=gpus), strategy, ps)


@lru_cache(maxsize=4096)
def _step(model: str, c: Candidate, precision: str) -> StepTime:
    from sim.scaleout import simulate_step
    strategy, sync = STRATEGIES[c.strategy]
    m, comm = _communicator(c.machine, c.nodes, c.network, c.gpus, strategy, c.ps)
    step = simulate_step(model, m, comm.ranks, strategy, c.batch_per_device, ps=c.ps, sync=sync,
                         communicator=comm, precision=precision)
    seconds = step.step_time
    if c.strategy == "ps-sync" and c.nodes > 1:
        seconds = max(seconds, _ps_closed_form(model, c, step))
    return StepTime(seconds, step.compute, step.communication, "simulated")


def _ps_closed_form(model: str, c: Candidate, step) -> float:
    from sim.hardware.networks import network
    from sim.scaleout.ps_scale import ps_step
    from sim.workloads import workload
    w = workload(model)
    forward = step.compute * w.forward_flops / w.flops if w.flops else 0.0
    net = network(c.network)
    return ps_step(w, forward, step.compute - forward, c.devices, c.gpus, c.ps, net.bandwidth,
                   net.latency).step_seconds


def model_step(model: str, c: Candidate, precision: str | None = None, stragglers=None) -> StepTime:
    """The simulated step of ``model`` (a ``sim.workloads`` name) on candidate ``c``, its compute
    by the roofline at ``precision`` (``sim.workloads.roofline.PRECISIONS``; default TensorFlow's,
    ``tf32``), stretched by ``stragglers`` (a ``sim.des.ComputeTime`` of mean about 1, or None).
    ``c.machine`` is a preset name or a machine file's ``sim.hardware.NodeSpec``."""
    from sim.workloads.roofline import DEFAULT_PRECISION, check_precision
    step = _step(model, c, check_precision(precision or DEFAULT_PRECISION))
    if stragglers is None:
        return step
    from .stragglers import async_factor, sync_factor
    factor = sync_factor(stragglers, c.workers, c.backups) if c.synchronous \
        else async_factor(stragglers)
    return StepTime(step.seconds + step.compute * (factor - 1), step.compute * factor,
                    step.communication, step.source)
