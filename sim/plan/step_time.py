"""Time per step of a candidate: model mode asks ``sim.scaleout.scale`` (the simulated step of a
described model on that cluster); real mode launches the learner's own script for a few steps.

Model mode calls only ``scale``'s public interface, so however ``sim.scaleout`` makes a step's
time, the plan uses it. Answers are cached per (model, cluster, strategy, batch): a plan over a
grid of learning-rate recipes or budgets simulates each cluster once.
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


@lru_cache(maxsize=4096)
def _scaled(model: str, machine: str, nodes: int, network, gpus: int, strategy: str, ps: int,
            batch: int, sync: bool) -> StepTime:
    from sim.scaleout import scale
    row = scale(model, machine, nodes=[nodes], network=network, gpus=[gpus], strategy=strategy,
                ps=ps, batch_per_device=batch, sync=sync)[0]
    return StepTime(row["step_time_ms"] / 1e3, row["compute_ms"] / 1e3, row["communication_ms"] / 1e3,
                    "simulated")


def model_step(model: str, c: Candidate) -> StepTime:
    """The simulated step of ``model`` (a ``sim.workloads`` name) on candidate ``c``."""
    strategy, sync = STRATEGIES[c.strategy]
    return _scaled(model, c.machine, c.nodes, c.network, c.gpus, strategy, c.ps, c.batch_per_device, sync)
