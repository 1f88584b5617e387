"""Checkpoints (§10): ``ModelCheckpoint``, ``BackupAndRestore`` and the distributed file helpers.

ModelCheckpoint writes through ``write_filepath`` (non-chief workers to a temporary directory,
removed after the save); BackupAndRestore saves the model, the optimizer and the (epoch, batch)
counters in one atomic file and resumes by the rules of T29.
"""
from __future__ import annotations

import os
import shutil
import warnings

import numpy as np

from sim.keras import distribute_utils as du, saving
from sim.keras.callbacks.base import Callback, _strategy

# ---------------------------------------------------------------- distributed file utils (§10.3)


def write_dirpath(dirpath, strategy):
    if strategy is None or not du.multi_worker(strategy) or strategy.extended.should_checkpoint:
        return dirpath
    suffix = "workertemp_" + str(strategy.extended._task_id)
    if os.path.basename(os.path.normpath(dirpath)) == suffix:
        return dirpath
    return os.path.join(dirpath, suffix)


def write_filepath(filepath, strategy):
    dirpath = os.path.dirname(filepath)
    return os.path.join(write_dirpath(dirpath, strategy), os.path.basename(filepath))


def remove_temp_dirpath(dirpath, strategy):
    if strategy is not None and du.multi_worker(strategy) and not strategy.extended.should_checkpoint:
        shutil.rmtree(write_dirpath(dirpath, strategy), ignore_errors=True)


# ---------------------------------------------------------------- ModelCheckpoint


class ModelCheckpoint(Callback):
    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch", options=None,
                 initial_value_threshold=None, **kwargs):
        super().__init__()
        self.filepath = os.fspath(filepath)
        self.monitor, self.verbose = monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' "
                             "or int")
        self.save_freq = save_freq
        self._chief_worker_only = False
        self._batches_seen = 0
        self._current_epoch = 0
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"ModelCheckpoint mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
            self.monitor_op, self.best = np.greater, -np.inf
        else:
            self.monitor_op, self.best = np.less, np.inf
        if initial_value_threshold is not None:
            self.best = initial_value_threshold
        self.last_saved_path = None

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if isinstance(self.save_freq, int):
            self._batches_seen += 1
            if self._batches_seen >= self.save_freq:
                self._batches_seen = 0
                self._save_model(self._current_epoch, batch, logs or {})

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs or {})

    def _get_file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" not in self.filepath:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}") from e

    def _save_model(self, epoch, batch, logs):
        strategy = _strategy(self.model)
        path = self._get_file_path(epoch, batch, logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                warnings.warn(f"Can save best model only with {self.monitor} available, skipping.",
                              stacklevel=2)
                return
            if not self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                      f"{current:.5f}, saving model to {path}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        target = write_filepath(path, strategy)
        if self.save_weights_only:
            self.model.save_weights(target, overwrite=True)
        else:
            self.model.save(target, overwrite=True)
        self.last_saved_path = target
        remove_temp_dirpath(os.path.dirname(path), strategy)


# ---------------------------------------------------------------- BackupAndRestore (§10.1, T29)


def remove_own_backup(read_dir):
    """Remove what BackupAndRestore wrote, never the learner's files: ``backup_dir/chief`` (its
    only folder, as tf-keras removes it), then ``backup_dir`` under Keras 3 (which removes the
    whole folder) only if nothing else is left in it."""
    from sim.keras.version import keras_major
    shutil.rmtree(read_dir, ignore_errors=True)
    if keras_major() == 3:
        try:
            os.rmdir(os.path.dirname(read_dir))
        except OSError:          # the learner's own files are there: they stay
            pass


class WorkerTrainingState:
    """Model + optimizer + (epoch, batch, train counter) in one atomic npz under backup_dir."""

    def __init__(self, model, backup_dir, save_freq):
        self.model = model
        self.save_freq = save_freq
        self.read_dir = os.path.join(backup_dir, "chief")
        strategy = _strategy(model)
        self.strategy = strategy
        self.write_dir = write_dirpath(self.read_dir, strategy)
        self.ckpt_saved_epoch = -1
        self.ckpt_saved_batch = -1

    def _variables(self):
        opt = getattr(self.model, "optimizer", None)
        return list(self.model.weights) + (list(opt.variables) if opt is not None else [])

    def back_up(self, epoch, batch=-1):
        self.ckpt_saved_epoch, self.ckpt_saved_batch = int(epoch), int(batch)
        arrays, meta = saving.pack(self._variables(), {
            "ckpt_saved_epoch": self.ckpt_saved_epoch, "ckpt_saved_batch": self.ckpt_saved_batch,
            "train_counter": int(self.model._train_counter)})
        saving.atomic_savez(os.path.join(self.write_dir, "ckpt.npz"), arrays, meta)
        if self.write_dir != self.read_dir:
            shutil.rmtree(self.write_dir, ignore_errors=True)

    def restore(self):
        path = os.path.join(self.read_dir, "ckpt.npz")
        if not os.path.exists(path):
            return False
        meta, arrays, _ = saving.load_npz(path)
        saving.assign_all(self._variables(), arrays, path)
        self.ckpt_saved_epoch = int(meta["ckpt_saved_epoch"])
        self.ckpt_saved_batch = int(meta["ckpt_saved_batch"])
        self.model._train_counter = int(meta["train_counter"])
        return True

    def delete_backup(self):
        barrier = getattr(self.strategy.extended, "_barrier", None)
        if barrier is not None:      # multi-worker: every worker has finished its last backup
            barrier()
        if self.write_dir == self.read_dir:
            remove_own_backup(self.read_dir)

    def maybe_load_initial_counters_from_ckpt(self, steps_per_epoch, initial_epoch):
        epoch, batch = self.ckpt_saved_epoch, self.ckpt_saved_batch
        initial_step = 0
        if self.save_freq == "epoch":
            if epoch >= 0:
                initial_epoch = epoch + 1
        elif batch >= 0 and epoch >= 0:
            if steps_per_epoch is not None and batch == steps_per_epoch - 1:
                initial_epoch, initial_step = epoch + 1, 0
            else:
                initial_epoch, initial_step = epoch, batch + 1
        return initial_epoch, initial_step


_SUPPORTED = ("_DefaultDistributionStrategy", "OneDeviceStrategy", "MirroredStrategy",
              "MultiWorkerMirroredStrategy", "CollectiveAllReduceStrategy", "TPUStrategy",
              "ParameterServerStrategy", "_FallbackStrategy", "DefaultStrategy")


class BackupAndRestore(Callback):
    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True,
                 save_before_preemption=False):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if not save_freq and not save_before_preemption:
            raise ValueError("Either `save_freq` or `save_before_preemption` must be set.")
        if save_freq not in ("epoch", False) and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' "
                             "or int or False")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint
        self.save_before_preemption = save_before_preemption
        self._chief_worker_only = False
        self._batches_count = 0
        self._current_epoch = 0

    def on_train_begin(self, logs=None):
        strategy = _strategy(self.model)
        name = type(strategy).__name__
        if name not in _SUPPORTED and not name.endswith("DefaultDistributionStrategy"):
            raise NotImplementedError(
                f"{name} is not supported yet. Currently BackupAndRestore callback only supports "
                "empty strategy, MirroredStrategy, MultiWorkerMirroredStrategy and TPUStrategy.")
        opt = self.model.optimizer
        if opt is not None and self.model.built:
            with strategy.scope():
                opt.build(self.model.trainable_variables)
        self.model._training_state = WorkerTrainingState(self.model, self.backup_dir, self.save_freq)
        self._training_state = self.model._training_state
        self._training_state.restore()

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if "ParameterServerStrategy" in type(_strategy(self.model)).__name__:
            return          # PSS: steps are still running on the workers; epoch-level only (§10.1)
        if self.save_freq not in ("epoch", False):
            self._batches_count += 1
            if self._batches_count >= self.save_freq:
                self._batches_count = 0
                self._training_state.back_up(epoch=self._current_epoch, batch=batch)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._training_state.back_up(epoch=epoch, batch=-1)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint:
            self._training_state.delete_backup()
        self.model._training_state = None
