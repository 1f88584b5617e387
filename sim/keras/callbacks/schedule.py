"""Callbacks that steer training epoch by epoch: ``LearningRateScheduler``, ``EarlyStopping``,
``TerminateOnNaN``.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from sim.keras import backend
from sim.keras.callbacks.base import Callback


class LearningRateScheduler(Callback):
    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        from sim.keras.version import keras_major
        opt = self.model.optimizer
        attribute = "learning_rate" if keras_major() == 3 else "lr"
        if not hasattr(opt, attribute):
            raise ValueError(f'Optimizer must have a "{attribute}" attribute.')
        lr = float(backend.get_value(opt.learning_rate))
        try:
            lr = self.schedule(epoch, lr)
        except TypeError:
            lr = self.schedule(epoch)
        lr = backend.get_value(lr)
        if not isinstance(lr, (float, int, np.floating, np.integer)) and np.ndim(lr) != 0:
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        opt.learning_rate = float(lr)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1:05d}: LearningRateScheduler setting learning rate to {float(lr)}.")

    def on_epoch_end(self, epoch, logs=None):
        from sim.keras.version import keras_major
        logs = logs if logs is not None else {}
        key = "learning_rate" if keras_major() == 3 else "lr"  # Keras 3 renamed the history key
        logs[key] = float(backend.get_value(self.model.optimizer.learning_rate))


class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.endswith("auc"))):
            self.monitor_op = np.greater
            self.min_delta = abs(min_delta)
        else:
            self.monitor_op = np.less
            self.min_delta = -abs(min_delta)
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op == np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs or {})}", stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self.monitor_op(current - self.min_delta, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self.monitor_op(current - self.min_delta, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")


class TerminateOnNaN(Callback):
    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True
