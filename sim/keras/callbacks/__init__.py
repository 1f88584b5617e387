"""Callbacks (``tf.keras.callbacks``): History, the progress line, checkpoints, fault tolerance.

The progress line is Keras' ("Epoch 1/3", "10/10 [====...] - loss: 0.1234") with the time per
step read from the SIMULATED clock (sim.runtime.clock()), never the wall clock, so notebook
outputs are reproducible. Checkpoints follow §10: ModelCheckpoint writes through
``write_filepath`` (non-chief workers to a temporary directory), BackupAndRestore saves the
model, the optimizer and the (epoch, batch) counters and resumes by the rules of T29.

One module per job:

- ``base.py``: ``Callback`` (every hook a no-op), ``History``, ``LambdaCallback``;
- ``callback_list.py``: ``CallbackList``, which runs the hooks of every callback in order;
- ``progress.py``: ``ProgbarLogger``, the progress line in simulated time;
- ``checkpoints.py``: ``ModelCheckpoint``, ``BackupAndRestore`` and the distributed file
  helpers (``write_dirpath``, ``write_filepath``, ``remove_temp_dirpath``) they write through;
- ``schedule.py``: ``LearningRateScheduler``, ``EarlyStopping``, ``TerminateOnNaN``;
- ``tensorboard.py``: ``TensorBoard`` (epoch scalars in TensorBoard event files, event_file.py).
"""
from __future__ import annotations

from sim.keras.callbacks.base import Callback, History, LambdaCallback
from sim.keras.callbacks.callback_list import CallbackList
from sim.keras.callbacks.checkpoints import (BackupAndRestore, ModelCheckpoint, WorkerTrainingState,
                                             remove_temp_dirpath, write_dirpath, write_filepath)
from sim.keras.callbacks.progress import ProgbarLogger, format_time
from sim.keras.callbacks.schedule import EarlyStopping, LearningRateScheduler, TerminateOnNaN
from sim.keras.callbacks.tensorboard import TensorBoard

__all__ = ["BackupAndRestore", "Callback", "CallbackList", "EarlyStopping", "History",
           "LambdaCallback", "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger",
           "TensorBoard", "TerminateOnNaN", "WorkerTrainingState", "format_time",
           "remove_temp_dirpath", "write_dirpath", "write_filepath"]
