"""Saying that training diverged, and which learning rate did it (DESIGN.md, "Errors a learner
meets": "diverged at step 37: learning rate 3.2 is above ...").

TensorFlow trains on through inf and NaN losses without a word (``TerminateOnNaN`` stops it).
The course says it once per run, in the course language, the way the scaling reference counts
a run as diverged (scaling_and_staleness.md §3): a loss that is inf/NaN or 10⁶ times its first
value. ``Model.fit`` watches its loss through ``DivergenceNotice`` (a callback it adds);
a parameter-server cluster checks the variables each update leaves on the ps tasks
(``watch_update``), which covers ``fit`` and custom ``ClusterCoordinator`` loops alike.
The line is printed, as Keras prints ``TerminateOnNaN``'s, and training goes on as in TensorFlow.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from sim.keras.callbacks.base import Callback

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


def message(step, lr, first, last) -> str:
    from sim.i18n import t
    if lr is None:
        return t("keras.diverged_no_rate", step=step, first=first, last=last)
    return t("keras.diverged", step=step, lr=lr, first=first, last=last, lower=_lower(lr))


def diverged(first, loss) -> bool:
    """Is ``loss`` inf/NaN, or 10⁶ times the run's first (finite, non-zero) loss?"""
    if not math.isfinite(loss):
        return True
    return first is not None and first > 0 and loss > DIVERGED_FACTOR * first


class DivergenceNotice(Callback):
    """Prints the divergence line the first time a fit's loss diverges."""

    def on_train_begin(self, logs=None):
        self._first, self._said, self._step = None, False, 0

    def on_train_batch_end(self, batch, logs=None):
        self._step += 1
        loss = (logs or {}).get("loss")
        if self._said or loss is None:
            return
        loss = float(np.asarray(loss))
        if self._first is None and math.isfinite(loss):
            self._first = loss
        if diverged(self._first, loss):
            self._said = True
            optimizer = getattr(self.model, "optimizer", None)
            lr = learning_rate_of(optimizer) if optimizer is not None else None
            step = self._step
            if optimizer is not None:
                try:
                    step = int(np.asarray(optimizer.iterations.numpy()))
                except Exception:  # noqa: BLE001
                    pass
            print(message(step, lr, self._first, loss), flush=True)


def with_notice(callbacks):
    """``callbacks`` (a list, a CallbackList's list, or None) plus a DivergenceNotice."""
    if hasattr(callbacks, "on_train_batch_end") and hasattr(callbacks, "callbacks"):
        callbacks = callbacks.callbacks          # a CallbackList given as ``callbacks``
    found = list(callbacks or [])
    if not any(isinstance(c, DivergenceNotice) for c in found):
        found.append(DivergenceNotice())
    return found


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
