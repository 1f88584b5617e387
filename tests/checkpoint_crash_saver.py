"""Helper of test_checkpoint_crash.py: a process that forks savers for the test to kill.

Importing sim.tf and Keras takes most of a second, so this process imports them once and
forks one saver per try (a fork starts in a millisecond). It reads ``<kind> <directory>
<delay_us>`` lines; for each it forks a child that sets up and then saves in a loop forever
(``SAVERS[kind]``), waits until the child starts saving, sleeps ``delay_us`` and SIGKILLs it,
then answers ``killed``, or ``died <status>`` if the child ended by itself.
Every saved value is the same number ``k`` in every array, so a reader can tell a checkpoint
written whole from one mixed of two saves.
"""
import os
import signal
import sys
import time

import numpy as np

import sim.tf as tf

MAX_TO_KEEP = 2


def _model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,))])
    model.compile(optimizer="sgd", loss="mse")
    return model


def _fill(variables, k):
    for v in variables:
        v.assign(np.full(tuple(v.shape), float(k), np.float32))


class Holder:
    pass


def _holder():
    h = Holder()
    h.a, h.b = tf.Variable(np.zeros((4, 5), np.float32)), tf.Variable(np.zeros(7, np.float32))
    return h


def save_weights(directory, ready):
    """sim's npz weights, tf-keras's stand-in for its checkpoint (Keras 3 refuses the name)."""
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    try:
        model = _model()
        ready()
        for k in range(1, 10**9):
            _fill(model.weights, k)
            model.save_weights(os.path.join(directory, "w.npz"))
    finally:
        del os.environ["TF_USE_LEGACY_KERAS"]


def keras_save(directory, ready):
    """model.save to Keras 3's .keras zip (sim/keras/saving/keras_archive.py)."""
    model = _model()
    model.build((None, 2))
    ready()
    for k in range(1, 10**9):
        _fill(model.weights, k)
        model.save(os.path.join(directory, "m.keras"))


def weights_h5(directory, ready):
    """save_weights to Keras 3's .weights.h5 (sim/keras/saving/weights_file.py)."""
    model = _model()
    ready()
    for k in range(1, 10**9):
        _fill(model.weights, k)
        model.save_weights(os.path.join(directory, "w.weights.h5"))


def model_h5(directory, ready):
    """model.save to the legacy HDF5 full-model file (sim/keras/saving/legacy_h5_model.py)."""
    model = _model()
    model.build((None, 2))
    ready()
    for k in range(1, 10**9):
        _fill(model.weights, k)
        model.save(os.path.join(directory, "m.h5"))


def legacy_h5(directory, ready):
    """save_weights to tf-keras's HDF5 weights file (sim/keras/saving/legacy_h5_weights.py)."""
    os.environ["TF_USE_LEGACY_KERAS"] = "1"       # tf-keras writes .h5 (undone for the others)
    try:
        model = _model()
        ready()
        for k in range(1, 10**9):
            _fill(model.weights, k)
            model.save_weights(os.path.join(directory, "w.h5"))
    finally:
        del os.environ["TF_USE_LEGACY_KERAS"]


def checkpoint_write(directory, ready):
    h = _holder()
    ckpt = tf.train.Checkpoint(model=h)
    ready()
    for k in range(1, 10**9):
        _fill([h.a, h.b], k)
        ckpt.write(os.path.join(directory, "ck"))


def manager_save(directory, ready):
    h = _holder()
    ckpt = tf.train.Checkpoint(model=h)
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=MAX_TO_KEEP)
    ckpt.restore(manager.latest_checkpoint)        # resume as a restarted job does
    ready()
    while True:
        _fill([h.a, h.b], int(ckpt.save_counter.numpy()) + 1)
        manager.save()


def _fit_saving(directory, ready, callback):
    """Fit forever, saving through ``callback`` after every batch; ``ready`` at the first save."""
    model = _model()
    x, y = np.ones((64, 2), np.float32), np.ones((64, 3), np.float32)
    model.fit(x, y, batch_size=4, epochs=10**9, verbose=0, callbacks=[_Ready(ready), callback])


class _Ready(tf.keras.callbacks.Callback):
    """Calls ``ready`` when the first batch ends, just before the saving callback's first save."""

    def __init__(self, ready):
        super().__init__()
        self._ready = ready

    def on_train_batch_end(self, batch, logs=None):
        if self._ready:
            self._ready()
            self._ready = None


def model_checkpoint(directory, ready):
    """ModelCheckpoint to Keras 3's .keras file each batch."""
    _fit_saving(directory, ready, tf.keras.callbacks.ModelCheckpoint(
        os.path.join(directory, "m.keras"), save_freq=1))


def backup_and_restore(directory, ready):
    _fit_saving(directory, ready, tf.keras.callbacks.BackupAndRestore(
        os.path.join(directory, "backup"), save_freq=1))


def saved_model(directory, ready):
    """tf.saved_model.save to sim's SavedModel directory (sim/tf/saved_model_dir.py)."""
    import tempfile
    model = _model()
    model.build((None, 2))
    with tempfile.TemporaryDirectory() as scratch:    # the first save loads h5py and the config
        tf.saved_model.save(model, os.path.join(scratch, "warm"))   # writers: not in the kills
    ready()
    for k in range(1, 10**9):
        _fill(model.weights, k)
        tf.saved_model.save(model, os.path.join(directory, "sm"))


SAVERS = {f.__name__: f for f in (save_weights, keras_save, weights_h5, model_h5, legacy_h5,
                                  checkpoint_write, manager_save, model_checkpoint,
                                  backup_and_restore, saved_model)}


def _child(kind, directory, ready_w):
    def ready():
        os.write(ready_w, b"s")
    try:
        SAVERS[kind](directory, ready)
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    os._exit(2)


def _warm_up():
    """Run every saver briefly in this process (imports, first model builds), so a forked child
    starts saving within milliseconds."""
    import tempfile

    class Enough(Exception):
        pass
    for kind, saver in SAVERS.items():
        with tempfile.TemporaryDirectory() as d:
            count = [0]

            def ready():
                count[0] += 1
            real = os.replace

            def replace(a, b):
                real(a, b)
                count[0] += 1
                if count[0] > 4:
                    raise Enough()
            os.replace = replace
            try:
                saver(d, ready)
            except Enough:
                pass
            finally:
                os.replace = real


def main():
    _warm_up()
    print("warm", flush=True)
    for line in sys.stdin:
        kind, directory, delay_us = line.split()
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(ready_r)
            _child(kind, directory, ready_w)
        os.close(ready_w)
        started = os.read(ready_r, 1)
        os.close(ready_r)
        if started:
            time.sleep(int(delay_us) / 1e6)
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        print("killed" if killed else f"died {status}", flush=True)


if __name__ == "__main__":
    main()
