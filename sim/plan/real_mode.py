"""Real mode: plan a small model the learner trains for real, then run the plan and compare.

The workload is the course's streaming regression (``sim.scaling.regression``: 16 inputs,
condition number 10, label noise 1), trained until the population excess loss is 1% of its
start, with the linear learning-rate rule from 0.05 at batch 8, capped where plain gradient
descent on this quadratic stops being stable (2 / lambda_max = 2) [derived]. Its plan's columns:

- steps: measured here, the median over ``seeds`` data streams of SGD at the rule's rate
  (``train_grid``, the same problem and rate the launched run trains), and fitted between;
- step: measured here, a short launch of ``regression_task.py`` on that cluster (``python -m
  sim launch``: the workers' real ops and the fabric's all-reduces on one simulated clock).

``closed_loop`` launches whole runs to the target and sets their simulated time beside the
plan's prediction: the error is what the plan got wrong (the steps of one data stream against
the median, the first steps' time against the average).
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .candidates import Candidate
from .step_time import StepTime
from .steps_curve import StepsCurve, fitted_curve

TASK = str(Path(__file__).with_name("regression_task.py"))
TARGET = 0.01
RECIPE = dict(rule="linear", base_learning_rate=0.05, base_batch=8, max_learning_rate=2.0)
MACHINE = "workstation-4gpu"        # the launcher's workstations: 4 V100-PCIe each, 10 GbE
PROBE_STEPS = 8


@lru_cache(maxsize=8)
def measured_curve(batches=(4, 8, 16, 32, 64, 128, 256), seeds=tuple(range(7))) -> StepsCurve:
    """Steps to 1% at each batch (median over data streams), and the fit through them."""
    from sim.scaling.regression import StreamingRegression, train_grid
    from sim.scaling.lr_rules import scaled_learning_rate
    problem = StreamingRegression(seed=0)
    medians = []
    for b in batches:
        lr = scaled_learning_rate(RECIPE["base_learning_rate"], RECIPE["base_batch"], b, RECIPE["rule"])
        medians.append(float(np.median([train_grid(problem, b, [lr], (TARGET,), seed=s).steps[0]
                                        for s in seeds])))
    from sim.i18n import t
    fit = fitted_curve(batches, medians, target=t("plan.real_target"), source="measured",
                       cite=t("plan.real_cite", n=len(seeds)), **RECIPE)
    return StepsCurve(fit.s_min, fit.b_crit, fit.target, fit.source, fit.cite,
                      measured=tuple(zip(batches, medians)), **RECIPE)


def candidates(hosts=(1, 2), gpus=(1, 2, 4), per_replica=(4, 16, 64)) -> list:
    return [Candidate(MACHINE, h, "10gbe" if h > 1 else None, g, "mirrored-ring", b)
            for h in hosts for g in gpus for b in per_replica]


@dataclass
class RunResult:
    steps: int
    seconds: float
    reached: bool
    loss_fraction: float


def launch_run(c: Candidate, learning_rate: float, max_steps: int = 5000, seed: int = 0) -> RunResult:
    """``python -m sim launch`` of the task on candidate ``c``'s cluster, until the target."""
    from sim.launch import launch
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "result.json")
        args = ["--per-replica-batch", str(c.batch_per_device), "--learning-rate", repr(learning_rate),
                "--target", repr(TARGET), "--max-steps", str(max_steps), "--seed", str(seed), "--out", out]
        result = launch(TASK, args, workers=c.nodes, gpus_per_worker=c.gpus, machine=MACHINE, echo=False,
                        timeout=600)
        if result.returncode != 0:
            raise RuntimeError(result.reason or result.output[-500:])
        with open(out) as f:
            got = json.load(f)
    return RunResult(got["steps"], got["seconds"], got["reached"], got["loss_fraction"])


@lru_cache(maxsize=256)
def measured_step(c: Candidate) -> StepTime:
    """The simulated time of one step on ``c``: a launch of ``PROBE_STEPS`` steps, averaged."""
    lr = RECIPE["base_learning_rate"] * c.devices * c.batch_per_device / RECIPE["base_batch"]
    run = launch_run(c, min(lr, 1.0), max_steps=PROBE_STEPS, seed=99)
    per_step = run.seconds / run.steps
    return StepTime(per_step, float("nan"), float("nan"), "measured")


def real_plan(cands=None, price: float = 1.0, rank_by: str = "time"):
    """The plan of the regression workload over ``cands`` (default: ``candidates()``)."""
    from .ranking import make_plan
    return make_plan(measured_step, measured_curve(), cands or candidates(), price, rank_by)


@dataclass
class LoopRow:
    name: str                   # "top" or "poor" (shown as t("plan.run_top") / t("plan.run_poor"))
    row: object                 # the PlanRow
    runs: list                  # RunResults, one per data stream (seed)

    @property
    def run(self) -> RunResult:
        return self.runs[0]

    @property
    def seconds(self) -> float:
        """The median run's simulated time to target: what the plan, a median, predicts."""
        return float(np.median([r.seconds for r in self.runs]))

    @property
    def error(self) -> float:
        """(predicted - median run) / median run time to target."""
        return (self.row.seconds - self.seconds) / self.seconds

    @property
    def single_errors(self) -> list:
        """Each run's own error: how far one data stream lands from the plan."""
        return [(self.row.seconds - r.seconds) / r.seconds for r in self.runs]


def closed_loop(plan, picks=None, seed: int = 0, seeds=None) -> list:
    """Launch the plan's top choice and a poor one (the slowest that reaches the target), or
    ``picks`` ({name: PlanRow}), each at its planned learning rate until the target, on the data
    streams ``seeds`` (default: ``seed`` alone). The plan's steps are the median of 7 streams, so
    its prediction is set beside the median run."""
    reaching = [r for r in plan.rows if r.reaches]
    picks = picks or {"top": reaching[0], "poor": reaching[-1]}
    seeds = tuple(seeds) if seeds is not None else (seed,)
    return [LoopRow(name, row, [launch_run(row.candidate, row.learning_rate, seed=s) for s in seeds])
            for name, row in picks.items()]
