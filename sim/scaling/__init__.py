"""Batch size and learning-rate scaling, measured on small real training runs.

Import it next to ``sim.tf``: ``from sim import scaling``. One job per module:

- ``global_batch``: per-replica batch x replicas (the guide's ``num_replicas_in_sync`` product);
- ``lr_rules``: linear, square-root and no scaling, and the guide's ``LEARNING_RATES_BY_BATCH_SIZE``;
- ``warmup``: ``GradualWarmup`` and ``ConstantWarmup``, Keras learning-rate schedules;
- ``noise_scale``: McCandlish's two-batch estimator of B_simple and the closed forms;
- ``critical_batch``: the fit S(B) = S_min (1 + B_crit / B);
- ``regression`` / ``teacher_mlp``: the reference's two problems, trained as stacked NumPy runs
  (a whole learning-rate grid, or several rules, in one set of arrays), on one BLAS thread
  (threadpoolctl): OpenBLAS's spinning threads made them ten times slower on a loaded machine;
- ``sweeps``: steps to target over batch sizes; ``step_time``: the simulator's time per step and
  time to target over replica counts; ``experiments``: the reference's E1, E2 and E3;
  ``replica_norms``: the estimator's two squared norms measured inside ``strategy.run`` (E7).
"""
from sim.scaling.critical_batch import StepsFit, doubling_ratios, fit_steps_curve
from sim.scaling.global_batch import global_batch_size, per_replica_batch_size
from sim.scaling.lr_rules import LEARNING_RATES_BY_BATCH_SIZE, RULES, scale_factor, scaled_learning_rate
from sim.scaling.noise_scale import (NoiseScaleMeter, b_simple, linear_regression_noise_scales,
                                     trace_sigma, true_gradient_sq)
from sim.scaling.warmup import ConstantWarmup, GradualWarmup, learning_rates

__all__ = ["LEARNING_RATES_BY_BATCH_SIZE", "RULES", "ConstantWarmup", "GradualWarmup", "NoiseScaleMeter",
           "StepsFit", "b_simple", "doubling_ratios", "fit_steps_curve", "global_batch_size",
           "learning_rates", "linear_regression_noise_scales", "per_replica_batch_size",
           "scale_factor", "scaled_learning_rate", "trace_sigma", "true_gradient_sq"]
