"""``TensorBoard``: epoch logs as JSON lines (no TensorBoard event files), chief only."""
from __future__ import annotations

import json
import os

import numpy as np

from sim.keras.callbacks.base import Callback, _strategy


class TensorBoard(Callback):
    """Writes epoch logs as JSON lines under ``log_dir/train`` (no TensorBoard event files)."""

    def __init__(self, log_dir="logs", **kwargs):
        super().__init__()
        self.log_dir = os.fspath(log_dir)

    def on_epoch_end(self, epoch, logs=None):
        if not _strategy(self.model).extended.should_save_summary:
            return
        d = os.path.join(self.log_dir, "train")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "scalars.jsonl"), "a", encoding="utf-8") as f:
            f.write(json.dumps({"epoch": epoch, **{k: float(v) for k, v in (logs or {}).items()
                                                   if np.ndim(v) == 0}}, sort_keys=True) + "\n")
