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

import numpy as np

from sim.distribute.divergence import (DIVERGED_FACTOR, _lower, diverged,  # noqa: F401
                                       learning_rate_of, register, watch_update)
from sim.keras.callbacks.base import Callback


def message(step, lr, first, last) -> str:
    from sim.i18n import t
    if lr is None:
        return t("keras.diverged_no_rate", step=step, first=first, last=last)
    return t("keras.diverged", step=step, lr=lr, first=first, last=last, lower=_lower(lr))


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
