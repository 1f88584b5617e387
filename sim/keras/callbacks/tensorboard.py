"""``TensorBoard``: epoch scalars in TensorBoard event files (``event_file.py``), chief only.

As tf-keras: ``log_dir/train`` gets ``epoch_<name>`` for every training log and
``log_dir/validation`` the ``val_`` ones (without the prefix), one event per epoch (step = epoch).
Event times are the simulated clock. Histograms, images, graphs and profiling are not written.
"""
from __future__ import annotations

import os

import numpy as np

from sim.keras.callbacks.base import Callback, _strategy
from sim.keras.callbacks.event_file import EventFileWriter


class TensorBoard(Callback):
    """Writes epoch logs as TensorBoard scalars under ``log_dir/train`` and ``log_dir/validation``."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None, **kwargs):
        super().__init__()
        self.log_dir = os.fspath(log_dir)
        self.update_freq = update_freq
        self._writers: dict = {}

    def _writer(self, name):
        from sim.runtime import clock
        if name not in self._writers:
            self._writers[name] = EventFileWriter(os.path.join(self.log_dir, name), clock().now)
        return self._writers[name]

    def on_train_begin(self, logs=None):
        self._writers = {}

    def on_epoch_end(self, epoch, logs=None):
        from sim.runtime import clock
        if not _strategy(self.model).extended.should_save_summary:
            return
        train, val = {}, {}
        for k, v in (logs or {}).items():
            if np.ndim(v) != 0:
                continue
            if k.startswith("val_"):
                val["epoch_" + k[4:]] = float(v)
            else:
                train["epoch_" + k] = float(v)
        now = clock().now
        if train:
            self._writer("train").add_scalars(train, epoch, now)
        if val:
            self._writer("validation").add_scalars(val, epoch, now)
