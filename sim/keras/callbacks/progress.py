"""The progress line (``ProgbarLogger``): Keras' bar or summary, timed by the SIMULATED clock.

"Epoch 1/3", then "10/10 [====...] - loss: 0.1234" with the time per step read from
sim.runtime.clock(), never the wall clock, so notebook outputs are reproducible.
"""
from __future__ import annotations

import sys

import numpy as np

from sim import i18n
from sim.keras.callbacks.base import Callback


def _sim_now():
    try:
        from sim import runtime

        return runtime.clock().now
    except (ImportError, AttributeError):
        return None


def format_time(seconds: float, unit: str) -> str:
    """Keras' per-unit time: '2s/step', '12ms/step', '40us/step'."""
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit}"
    return f"{seconds * 1e6:.0f}us/{unit}"


def _fmt_value(v):
    if isinstance(v, (float, int, np.floating, np.integer)):
        av = abs(float(v))
        return f"{float(v):.4f}" if av > 1e-3 or av == 0 else f"{float(v):.4e}"
    return str(v)


class ProgbarLogger(Callback):
    """One line per epoch: bar (verbose=1) or summary (verbose=2), simulated time per step."""

    def __init__(self, count_mode="steps", stateful_metrics=None):
        super().__init__()
        self._start = None
        self._seen = 0
        self._mode = None

    def _print(self, text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    @property
    def verbose(self):
        return self.params.get("verbose", 1)

    def on_train_begin(self, logs=None):
        self._mode = "train"

    def on_train_end(self, logs=None):
        self._mode = None

    def on_epoch_begin(self, epoch, logs=None):
        self._seen = 0
        self._start = _sim_now()
        if self.verbose and self.params.get("epochs", 1) > 1:
            self._print(f"Epoch {epoch + 1}/{self.params.get('epochs', 1)}")

    def on_train_batch_end(self, batch, logs=None):
        self._seen = batch + 1

    def on_epoch_end(self, epoch, logs=None):
        self._finish(logs or {})

    def on_test_begin(self, logs=None):
        if self._mode != "train":
            self._seen = 0
            self._start = _sim_now()

    def on_test_batch_end(self, batch, logs=None):
        if self._mode != "train":
            self._seen = batch + 1

    def on_test_end(self, logs=None):
        if self._mode != "train":
            self._finish(logs or {})

    def on_predict_begin(self, logs=None):
        self._seen = 0
        self._start = _sim_now()

    def on_predict_batch_end(self, batch, logs=None):
        self._seen = batch + 1

    def on_predict_end(self, logs=None):
        self._finish({})

    def _finish(self, logs):
        if not self.verbose:
            return
        steps = self.params.get("steps") or self._seen
        seen = self._seen
        now = _sim_now()
        elapsed = (now - self._start) if (now is not None and self._start is not None) else None
        sim = i18n.t("keras.simulated")
        parts = []
        if self.verbose == 1:
            width = 30
            done = int(width * seen / steps) if steps else width
            bar = "=" * done if done >= width else "=" * max(done - 1, 0) + ">" + "." * (width - done)
            head = f"{seen}/{steps} [{bar}]"
            if elapsed is not None:
                head += f" - {elapsed:.0f}s {format_time(elapsed / max(seen, 1), 'step')} ({sim})"
            parts.append(head)
            parts += [f"{k}: {_fmt_value(v)}" for k, v in logs.items() if k != "outputs"]
        else:
            parts.append(f"{seen}/{steps}")
            if elapsed is not None:
                parts.append(f"{elapsed:.0f}s")
            parts += [f"{k}: {_fmt_value(v)}" for k, v in logs.items() if k != "outputs"]
            if elapsed is not None:
                parts.append(f"{format_time(elapsed, 'epoch')} - "
                             f"{format_time(elapsed / max(seen, 1), 'step')} ({sim})")
        self._print(" - ".join(parts))
