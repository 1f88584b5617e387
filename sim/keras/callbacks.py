"""Callbacks (``tf.keras.callbacks``): History, the progress line, checkpoints, fault tolerance.

The progress line is Keras' ("Epoch 1/3", "10/10 [====...] - loss: 0.1234") with the time per
step read from the SIMULATED clock (sim.runtime.clock()), never the wall clock, so notebook
outputs are reproducible. Checkpoints follow §10: ModelCheckpoint writes through
``write_filepath`` (non-chief workers to a temporary directory), BackupAndRestore saves the
model, the optimizer and the (epoch, batch) counters and resumes by the rules of T29.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import sys
import warnings

import numpy as np

from sim import i18n
from sim.keras import backend, distribute_utils as du, saving


class Callback:
    def __init__(self):
        self.model = None
        self.params = {}
        self.validation_data = None
        self._chief_worker_only = None
        self._supports_tf_logs = False

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None): pass
    def on_batch_end(self, batch, logs=None): pass
    def on_epoch_begin(self, epoch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass
    def on_train_batch_begin(self, batch, logs=None): self.on_batch_begin(batch, logs)
    def on_train_batch_end(self, batch, logs=None): self.on_batch_end(batch, logs)
    def on_test_batch_begin(self, batch, logs=None): pass
    def on_test_batch_end(self, batch, logs=None): pass
    def on_predict_batch_begin(self, batch, logs=None): pass
    def on_predict_batch_end(self, batch, logs=None): pass
    def on_train_begin(self, logs=None): pass
    def on_train_end(self, logs=None): pass
    def on_test_begin(self, logs=None): pass
    def on_test_end(self, logs=None): pass
    def on_predict_begin(self, logs=None): pass
    def on_predict_end(self, logs=None): pass


_HOOKS = ["on_epoch_begin", "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
          "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin",
          "on_predict_batch_end", "on_train_begin", "on_train_end", "on_test_begin", "on_test_end",
          "on_predict_begin", "on_predict_end"]


class CallbackList:
    """Runs every callback's hook in order; adds ProgbarLogger first and History last."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        self.callbacks = list(callbacks or [])
        if add_progbar:
            self.callbacks.insert(0, ProgbarLogger())
        if add_history:
            model.history = History()
            self.callbacks.append(model.history)
        self.model = model
        self.params = {"verbose": params.get("verbose", 0), "epochs": params.get("epochs", 1),
                       "steps": params.get("steps")}
        for cb in self.callbacks:
            cb.set_model(model)
            cb.set_params(self.params)

    def append(self, cb):
        cb.set_model(self.model)
        cb.set_params(self.params)
        self.callbacks.append(cb)

    def __iter__(self):
        return iter(self.callbacks)

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)

    def on_epoch_begin(self, epoch, logs=None): self._call("on_epoch_begin", epoch, logs or {})
    def on_epoch_end(self, epoch, logs=None): self._call("on_epoch_end", epoch, logs if logs is not None else {})
    def on_train_batch_begin(self, b, logs=None): self._call("on_train_batch_begin", b, logs or {})
    def on_train_batch_end(self, b, logs=None): self._call("on_train_batch_end", b, logs or {})
    def on_test_batch_begin(self, b, logs=None): self._call("on_test_batch_begin", b, logs or {})
    def on_test_batch_end(self, b, logs=None): self._call("on_test_batch_end", b, logs or {})
    def on_predict_batch_begin(self, b, logs=None): self._call("on_predict_batch_begin", b, logs or {})
    def on_predict_batch_end(self, b, logs=None): self._call("on_predict_batch_end", b, logs or {})
    def on_train_begin(self, logs=None): self._call("on_train_begin", logs or {})
    def on_train_end(self, logs=None): self._call("on_train_end", logs or {})
    def on_test_begin(self, logs=None): self._call("on_test_begin", logs or {})
    def on_test_end(self, logs=None): self._call("on_test_end", logs or {})
    def on_predict_begin(self, logs=None): self._call("on_predict_begin", logs or {})
    def on_predict_end(self, logs=None): self._call("on_predict_end", logs or {})


class History(Callback):
    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self

    def __repr__(self):
        return "<keras.callbacks.History>"


# ---------------------------------------------------------------- the progress line


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


# ---------------------------------------------------------------- distributed file utils (§10.3)


def _strategy(model):
    return model.distribute_strategy if model is not None else du.get_strategy()


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
        if self.write_dir == self.read_dir:
            shutil.rmtree(os.path.dirname(self.read_dir), ignore_errors=True)

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


# ---------------------------------------------------------------- schedules and stopping


class LearningRateScheduler(Callback):
    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        opt = self.model.optimizer
        if not hasattr(opt, "lr"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        lr = float(backend.get_value(opt.learning_rate if not callable(opt.learning_rate)
                                     or hasattr(opt.learning_rate, "numpy") else opt.lr))
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
        logs = logs if logs is not None else {}
        logs["lr"] = float(backend.get_value(self.model.optimizer.learning_rate))


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


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        for name, fn in dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                             on_batch_begin=on_batch_begin, on_batch_end=on_batch_end,
                             on_train_begin=on_train_begin, on_train_end=on_train_end, **kwargs).items():
            if fn is not None:
                setattr(self, name, fn)


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
