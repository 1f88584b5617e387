"""Checkpoints survive SIGKILL at any instant (issue 9): every saving path, many seeded kills.

A saver process (checkpoint_crash_saver.py) is killed at a random instant while it saves, again
and again in the same directory (a restarted job saving where the killed one did). After every
kill the newest checkpoint the API reports must be complete (every array from one save) and
loadable, and the directory may hold at most one temporary file and ``max_to_keep`` checkpoints
plus the one being saved (as a temporary file, or complete and not yet swept: a manager deletes
old checkpoints only after it has recorded the new one).
The default run takes a few seconds; ``SIM_CRASH_TRIES=200`` kills each path 200 times.
"""
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import sim.tf as tf
from sim.keras import saving

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import checkpoint_crash_saver as saver  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the saver forks its children")

TRIES = int(os.environ.get("SIM_CRASH_TRIES", "10"))
MAX_TRIES_FACTOR = 10       # kills allowed, in units of TRIES, until one lands mid-save
MAX_DELAY_US = 80000        # a save (with its fsync) takes 5-25 ms here: a kill lands in any phase


@pytest.fixture(scope="module")
def forker():
    env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE), OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "checkpoint_crash_saver.py")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
    assert proc.stdout.readline().strip() == "warm"
    yield proc
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()


def _kill_once(forker, kind, directory, delay_us):
    forker.stdin.write(f"{kind} {directory} {delay_us}\n")
    forker.stdin.flush()
    answer = forker.stdout.readline().strip()
    assert answer == "killed", f"the {kind} saver ended by itself ({answer}); see its stderr"


def _temporaries(directory):
    return [f for f in os.listdir(directory) if ".tmp" in f]


def _assert_one_save(arrays, where):
    """Every value of every array is the same save's number."""
    values = {float(v) for a in arrays for v in np.ravel(a)}
    assert len(values) == 1, f"{where} mixes saves: {sorted(values)}"


def _check_single_file(directory, name, load):
    files = os.listdir(directory)
    temps = _temporaries(directory)
    assert len(temps) <= 1 and set(files) - set(temps) <= {name}, files
    if name in files:
        load(os.path.join(directory, name))


# the paths that write one file: its name, and whether it holds weights or a whole model
# (legacy_h5: Keras 3 reads tf-keras's HDF5 weights too)
SINGLE_FILES = {"save_weights": ("w.npz", "weights"), "keras_save": ("m.keras", "model"),
                "weights_h5": ("w.weights.h5", "weights"), "model_h5": ("m.h5", "model"),
                "legacy_h5": ("w.h5", "weights")}


def _load_one(holds, path):
    if holds == "weights":
        model = saver._model()
        model.load_weights(path)
    else:
        model = tf.keras.models.load_model(path)
    _assert_one_save(model.get_weights(), path)


def _check(kind, directory):
    if kind in SINGLE_FILES:
        name, holds = SINGLE_FILES[kind]
        _check_single_file(directory, name, lambda path: _load_one(holds, path))
    elif kind == "checkpoint_write":
        def load(path):
            h = saver._holder()
            tf.train.Checkpoint(model=h).restore(path).assert_consumed()
            _assert_one_save([h.a.numpy(), h.b.numpy()], path)
        _check_single_file(directory, "ck.npz", load)
    elif kind == "manager_save":
        files = os.listdir(directory)
        temps = _temporaries(directory)
        checkpoints = [f for f in files if f.endswith(".npz") or f.startswith(".ckpt-")]
        # max_to_keep, plus the new one (being written, or written and not yet swept).
        assert len(temps) <= 1 and len(checkpoints) <= saver.MAX_TO_KEEP + 1, files
        latest = tf.train.latest_checkpoint(directory)
        assert (latest is None) == ("checkpoint" not in files), files
        if latest is not None:
            h = saver._holder()
            ckpt = tf.train.Checkpoint(model=h)
            ckpt.restore(latest).assert_consumed()
            _assert_one_save([h.a.numpy(), h.b.numpy()], latest)
            assert float(h.a.numpy()[0, 0]) == int(ckpt.save_counter.numpy())
            manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=saver.MAX_TO_KEEP)
            assert manager.latest_checkpoint == latest
    elif kind == "model_checkpoint":          # Keras 3's .keras file, written whole or not at all
        assert len(_temporaries(directory)) <= 1, os.listdir(directory)
        if os.path.exists(os.path.join(directory, "m.keras")):
            tf.keras.models.load_model(os.path.join(directory, "m.keras"))
    elif kind == "saved_model":
        target = os.path.join(directory, "sm")
        if os.path.isdir(target):
            files, temps = os.listdir(target), _temporaries(target)
            assert len(temps) <= 1 and set(files) - set(temps) <= {"model.keras",
                                                                   "sim_saved_model.json"}, files
            if "sim_saved_model.json" in files:      # written last: the directory is loadable
                loaded = tf.saved_model.load(target)
                _assert_one_save([v.numpy() for v in loaded.variables], target)
    elif kind == "backup_and_restore":
        chief = os.path.join(directory, "backup", "chief")
        if os.path.isdir(chief):
            def load(path):
                meta, arrays, _ = saving.load_npz(path)
                # the model's 2 weights, the optimizer's iteration and (Keras 3) learning_rate
                assert meta["ckpt_saved_batch"] >= 0 and len(arrays) == 2 + 2
            _check_single_file(chief, "ckpt.npz", load)


@pytest.mark.parametrize("kind", list(saver.SAVERS))
def test_a_kill_at_any_instant_leaves_a_complete_latest_checkpoint(forker, tmp_path, kind):
    rng = random.Random(f"crash-{kind}")
    directory = str(tmp_path)
    mid_save = kills = 0
    # Where a kill lands is up to the machine's timing (on a fast one only 1 kill in 5 finds a
    # save's temporary file for some paths): kill at least TRIES times, and on until one has.
    while kills < TRIES or (not mid_save and kills < MAX_TRIES_FACTOR * TRIES):
        _kill_once(forker, kind, directory, rng.randrange(MAX_DELAY_US))
        kills += 1
        mid_save += any(_temporaries(d) for d, _, _ in os.walk(directory))
        _check(kind, directory)
    assert mid_save, f"none of {kills} kills landed in the middle of a save: the test tests nothing"
    assert any(f.endswith((".npz", ".keras", ".h5"))
               for _, _, files in os.walk(directory) for f in files)
