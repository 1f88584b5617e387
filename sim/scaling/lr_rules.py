"""Learning-rate scaling rules: how the learning rate follows the global batch.

- ``"linear"`` (Goyal et al. 2017, "Accurate, Large Minibatch SGD"): batch x k, rate x k.
- ``"sqrt"`` (Krizhevsky 2014; Hoffer et al. 2017): batch x k, rate x sqrt(k), which keeps the
  variance of one update the same.
- ``"none"``: the rate of the base batch, whatever the batch.
- ``"guide"``: the lookup table of TensorFlow's guide "Distributed training with TensorFlow",
  ``LEARNING_RATES_BY_BATCH_SIZE = {5: 0.1, 10: 0.15, 20: 0.175}``: illustrative numbers, x1.5
  on the first doubling (between sqrt's 1.41 and linear's 2) and x1.17 on the second, so x1.75
  from 5 to 20 where sqrt gives x2 and linear x4; defined only at its three sizes.
"""
from __future__ import annotations

import math

from sim.i18n import join_list, t

RULES = ("none", "sqrt", "linear", "guide")
LEARNING_RATES_BY_BATCH_SIZE = {5: 0.1, 10: 0.15, 20: 0.175}


def _positive(value, name: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if not number > 0 or math.isinf(number):
        raise ValueError(t("scaling.not_positive", name=name, value=value))
    return number


def scale_factor(base_batch, global_batch, rule: str) -> float:
    """The factor a rule multiplies the base learning rate by (``"guide"`` has none)."""
    k = _positive(global_batch, "global_batch") / _positive(base_batch, "base_batch")
    if rule == "linear":
        return k
    if rule == "sqrt":
        return math.sqrt(k)
    if rule == "none":
        return 1.0
    if rule == "guide":
        raise ValueError(t("scaling.guide_has_no_factor"))
    raise ValueError(t("scaling.unknown_rule", rule=rule, known=join_list(RULES)))


def scaled_learning_rate(base_learning_rate, base_batch, global_batch, rule: str = "linear") -> float:
    """The learning rate for ``global_batch`` under ``rule``, given the rate tuned at ``base_batch``.

    ``"guide"`` ignores the base and reads the guide's table (only batches 5, 10 and 20).
    """
    if rule == "guide":
        batch = int(_positive(global_batch, "global_batch"))
        if batch != global_batch or batch not in LEARNING_RATES_BY_BATCH_SIZE:
            raise ValueError(t("scaling.guide_batch", batch=global_batch,
                               known=join_list(LEARNING_RATES_BY_BATCH_SIZE)))
        return LEARNING_RATES_BY_BATCH_SIZE[batch]
    return _positive(base_learning_rate, "base_learning_rate") * scale_factor(base_batch, global_batch, rule)
