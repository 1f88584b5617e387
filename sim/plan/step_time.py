"""Time per step of a candidate, in model mode: ``sim.scaleout.simulate_step`` (the simulated
step of a described model on that cluster), as ``sim.scaleout.scale`` calls it.

The plan calls only sim.scaleout's public functions, so however it makes a step's time, the
plan uses it. Clusters and ``Communicator`` s (which cache each bucket size's synchronisation
time) are kept per (cluster, strategy): the candidates that differ only in their batch per device,
or in sync against async parameter servers, share one, so a plan over 200 candidates simulates
each distinct synchronisation once.
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
    return StepTime(step.step_time, step.compute, step.communication, "simulated")


def model_step(model: str, c: Candidate, precision: str | None = None) -> StepTime:
    """The simulated step of ``model`` (a ``sim.workloads`` name) on candidate ``c``, its compute
    by the roofline at ``precision`` (``sim.workloads.roofline.PRECISIONS``; default TensorFlow's,
    ``tf32``). ``c.machine`` is a preset name or a machine file's ``sim.hardware.NodeSpec``."""
    from sim.workloads.roofline import DEFAULT_PRECISION, check_precision
    return _step(model, c, check_precision(precision or DEFAULT_PRECISION))
