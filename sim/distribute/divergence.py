"""Saying that training diverged, and which learning rate did it (DESIGN.md, "Errors a learner
meets": "diverged at step 37: learning rate 3.2 is above ..."): the test and the words that any
training loop shares, below Keras (a parameter-server cluster's updates use it directly).

A loss diverged when it is inf/NaN or 10⁶ times the run's first value (scaling_and_staleness.md
§3). ``watch_update`` checks the variables each parameter-server update leaves on the ps tasks;
Keras' ``DivergenceNotice`` (sim.keras.divergence) watches ``Model.fit``'s loss. Optimizers
``register`` themselves so a ps cluster can name the rate of the newest one.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

DIVERGED_FACTOR = 1e6


_optimizers: "weakref.WeakSet" = weakref.WeakSet()


_order: dict = {}


def register(optimizer) -> None:
    """Remember a live optimizer, so a ps cluster can name the rate of the newest one."""
    _optimizers.add(optimizer)
    _order[id(optimizer)] = len(_order)


def learning_rate_of(optimizer):
    """The optimizer's rate at its current step (a float), or None."""
    try:
        return float(optimizer._current_lr(int(np.asarray(optimizer.iterations.numpy()))))
    except Exception:  # noqa: BLE001 - an optimizer of another kind: say no rate
        return None


def _newest_optimizer():
    live = list(_optimizers)
    return max(live, key=lambda o: _order.get(id(o), -1)) if live else None


def _lower(lr):
    return float(f"{lr / 10:.2g}")


def diverged(first, loss) -> bool:
    """Is ``loss`` inf/NaN, or 10⁶ times the run's first (finite, non-zero) loss?"""
    if not math.isfinite(loss):
        return True
    return first is not None and first > 0 and loss > DIVERGED_FACTOR * first


def watch_update(cluster, written, version, result=None) -> None:
    """After a ps update: the first time the closure's loss diverges, or a trainable variable
    holds inf/NaN, say so (once per cluster)."""
    if getattr(cluster, "_diverged_said", False):
        return
    loss = _scalar_loss(result)
    if loss is not None and getattr(cluster, "_first_loss", None) is None and math.isfinite(loss):
        cluster._first_loss = loss
    bad = loss is not None and diverged(getattr(cluster, "_first_loss", None), loss)
    bad = bad or any(getattr(v, "trainable", False) and not np.all(np.isfinite(np.asarray(v._value)))
                     for v in written)
    if not bad:
        return
    cluster._diverged_said = True
    from sim.i18n import t
    optimizer = _newest_optimizer()
    lr = learning_rate_of(optimizer) if optimizer is not None else None
    if lr is None:
        print(t("keras.diverged_ps_no_rate", step=version), flush=True)
    else:
        print(t("keras.diverged_ps", step=version, lr=lr, lower=_lower(lr)), flush=True)


def _scalar_loss(result):
    """The loss a closure returned (a float scalar, or a logs dict's "loss"), or None (an int,
    such as a counter a closure increments, is not a loss)."""
    if isinstance(result, dict):
        result = result.get("loss")
    if result is None:
        return None
    try:
        value = np.asarray(result.numpy() if hasattr(result, "numpy") else result)
    except Exception:  # noqa: BLE001 - not a number: nothing to watch
        return None
    return float(value) if value.size == 1 and value.dtype.kind == "f" else None
