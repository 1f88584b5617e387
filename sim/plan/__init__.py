"""Plan a training run: which cluster, strategy and batch reach a target soonest, and cheapest.

Lesson 08 knows how many steps a batch needs, lesson 09 how long a step takes; the plan
multiplies them. One job per module:

- ``candidates``: the configurations to compare (node preset, nodes, network, strategy, batch);
- ``recipes``: a named recipe's published convergence (epochs to the target per batch size);
- ``steps_curve``: a steps-versus-batch curve measured here (real mode) or your own;
- ``asynchrony``: asynchronous parameter servers' cost, derived from the measured staleness;
- ``stragglers``: stragglers and backup workers in the step time;
- ``step_time``: time per step (model mode: ``sim.scaleout``, synchronous PS at scale:
  ``sim.scaleout.ps_scale``);
- ``ranking``: the arithmetic, the ranked rows, budget and deadline;
- ``table``: the rows as a table, each column's source named;
- ``real_mode`` (with ``regression_task``, the launched script): the closed loop: plan a small
  model, launch the runs, compare;
- ``view``: the classroom demo (budget, deadline and recipe).
"""
from .candidates import STRATEGIES, Candidate, grid
from .ranking import Plan, PlanRow, make_plan, plan_row, rank
from .recipes import RECIPES, Recipe, recipe
from .step_time import StepTime, model_step
from .steps_curve import StepsCurve, fitted_curve

__all__ = ["RECIPES", "STRATEGIES", "Candidate", "Plan", "PlanRow", "Recipe", "StepTime",
           "StepsCurve", "fitted_curve", "grid", "make_plan", "model_step", "plan_row", "rank", "recipe"]
