"""Issue 36 (reliability probe 2): saves that meet each other or someone else's files.
F2 BackupAndRestore removes only what it wrote; F5 a planted name blocks no save and the
saver deletes no file it did not make; F8 two writers of one path both succeed, one whole file."""
import os
import subprocess
import sys

import numpy as np
import pytest

import sim.tf as tf
from sim.storage import safe_io

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _model():
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    return m


# ------------------------------------------------------------------ F2

@pytest.mark.parametrize("legacy", [False, True])
def test_f2_backup_and_restore_keeps_the_learners_files(tmp_path, monkeypatch, legacy):
    if legacy:
        monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    else:
        monkeypatch.delenv("TF_USE_LEGACY_KERAS", raising=False)
    (tmp_path / "notes.txt").write_text("a week of work\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "train.csv").write_text("1,2\n")
    _model().fit(np.ones((8, 3), np.float32), np.ones((8, 1), np.float32), epochs=2, verbose=0,
                 callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir=str(tmp_path))])
    assert (tmp_path / "notes.txt").exists() and (tmp_path / "data" / "train.csv").exists()
    assert not (tmp_path / "chief").exists()          # its own folder went, as tf-keras's does


@pytest.mark.parametrize("legacy", [False, True])
def test_f2_a_backup_dir_of_its_own_goes_as_tensorflow_removes_it(tmp_path, monkeypatch, legacy):
    """Keras 3 removes backup_dir, tf-keras only backup_dir/chief (tests/tf_crosscheck)."""
    if legacy:
        monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")
    else:
        monkeypatch.delenv("TF_USE_LEGACY_KERAS", raising=False)
    backup = tmp_path / "backup"
    _model().fit(np.ones((8, 3), np.float32), np.ones((8, 1), np.float32), epochs=1, verbose=0,
                 callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir=str(backup))])
    assert backup.exists() == legacy
    assert not (backup / "chief").exists()


# ------------------------------------------------------------------ F5

def test_f5_planted_names_block_no_save(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")    # Keras 3 refuses save_weights("w.npz")
    (tmp_path / ".model.keras.tmp-x").mkdir()
    (tmp_path / ".tmp-x.npz").mkdir()
    (tmp_path / ".w.npz.tmp-1-abcdefgh").mkdir()         # our own pattern, but a directory
    m = _model()
    m.save("model.keras")
    m.save_weights("w.npz")
    tf.train.Checkpoint(m=m).write("ckpt")
    tf.keras.models.load_model("model.keras")
    for planted in (".model.keras.tmp-x", ".tmp-x.npz", ".w.npz.tmp-1-abcdefgh"):
        assert (tmp_path / planted).is_dir()


def test_f5_only_an_ended_saves_own_temporary_file_is_removed(tmp_path):
    target = str(tmp_path / "w.npz")
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True).stdout.strip()
        names = {"ended": f".w.npz.tmp-{dead}-abcd1234",          # a killed save's: removed
                 "running": f".w.npz.tmp-{alive.pid}-abcd1234",   # a save in progress: kept
                 "other": ".tmp-x1y2.npz", "legacy": "w.npz.tmp",  # anyone's names: kept
                 "unlike": f".w.npz.tmp-{dead}-not-ours"}
        for name in names.values():
            (tmp_path / name).write_bytes(b"x")
        safe_io.atomic_savez(target, {"a": np.zeros(2)}, {"format": "t"})
        left = set(os.listdir(tmp_path))
        assert names["ended"] not in left
        assert {names[k] for k in ("running", "other", "legacy", "unlike")} <= left
    finally:
        alive.kill()
        alive.wait()


def test_f5_temporary_names_are_exclusive_and_unpredictable(tmp_path, monkeypatch):
    made = []
    real = safe_io.tempfile.mkstemp

    def spy(**kwargs):
        fd, name = real(**kwargs)
        made.append(name)
        return fd, name
    monkeypatch.setattr(safe_io.tempfile, "mkstemp", spy)
    for _ in range(2):
        safe_io.atomic_write(str(tmp_path / "f.bin"), lambda f: f.write(b"x"))
    assert len(set(made)) == 2
    assert all(os.path.basename(n).startswith(f".f.bin.tmp-{os.getpid()}-") for n in made)


# ------------------------------------------------------------------ F8

_TWO_WRITERS = r"""
import collections, os, sys
import sim.tf as tf
name = sys.argv[1]; os.chdir(sys.argv[2])
m = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(256), tf.keras.layers.Dense(10)])
m.compile("adam", "mse")
pid = os.fork()
failed = 0
for i in range(40):
    try:
        m.save(name) if name.endswith((".keras", "m.h5")) else m.save_weights(name)
    except Exception as e:
        failed += 1; print(type(e).__name__, e, flush=True)
print("FAILED", failed, flush=True)
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
if name.endswith(".keras") or name == "m.h5":
    tf.keras.models.load_model(name)
else:
    m.load_weights(name)
print("LOADED", sorted(f for f in os.listdir(".") if ".tmp" in f))
"""


@pytest.mark.parametrize("name", ["model.keras", "w.weights.h5", "w.npz", "m.h5"])
def test_f8_two_writers_of_one_path_both_succeed(tmp_path, name):
    env = dict(os.environ, PYTHONPATH=ROOT)
    if name.endswith(".npz"):               # sim's weights file is tf-keras's stand-in (routes.py)
        env["TF_USE_LEGACY_KERAS"] = "1"
    run = subprocess.run([sys.executable, "-c", _TWO_WRITERS, name, str(tmp_path)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("FAILED 0") == 2, run.stdout
    assert "LOADED []" in run.stdout, run.stdout            # one whole file, no temporary left
