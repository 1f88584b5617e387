"""Plan a training run: which cluster, strategy and batch reach a target soonest, and cheapest.

Lesson 08 knows how many steps a batch needs, lesson 09 how long a step takes; the plan
multiplies them. One job per module:

- ``candidates``: the configurations to compare (node preset, nodes, network, strategy, batch);
- ``steps_curve``: steps to the target against the batch (fitted, measured or assumed), with
  the learning-rate rule, warmup and the asynchronous parameter servers' staleness penalty;
- ``step_time``: time per step (model mode: ``sim.scaleout.scale``);
- ``ranking``: the arithmetic, the ranked rows, budget and deadline;
- ``table``: the rows as a table, each column's source named;
- ``real_mode`` (with ``regression_task``, the launched script): the closed loop: plan a small
  model, launch the runs, compare;
- ``view``: the classroom demo (budget, deadline and critical-batch sliders).
"""
from .candidates import STRATEGIES, Candidate, grid
from .ranking import Plan, PlanRow, make_plan, plan_row, rank
from .step_time import StepTime, model_step
from .steps_curve import CURVES, StepsCurve, fitted_curve

__all__ = ["CURVES", "STRATEGIES", "Candidate", "Plan", "PlanRow", "StepTime", "StepsCurve",
           "fitted_curve", "grid", "make_plan", "model_step", "plan_row", "rank"]
