"""Checkpoint hardening (issue 9, bugs 2-5): state before sweep, restarts, stale temporary
files, closed files, a corpus of damaged and foreign files, model.save then load_weights."""
import json
import logging
import os
import pickle
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import sim.tf as tf
from sim import i18n

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Holder:
    pass


def _checkpoint(value=1.0):
    h = _Holder()
    h.w = tf.Variable([value, 2 * value])
    return tf.train.Checkpoint(model=h), h


def _npz_files(directory):
    return sorted(f for f in os.listdir(directory) if f.endswith(".npz"))


# ------------------------------------------------------------------ bug 2: manager order, restarts

@pytest.mark.parametrize("number", [None, 2])
def test_manager_records_the_new_checkpoint_before_deleting_the_old(tmp_path, monkeypatch, number):
    ckpt, _ = _checkpoint()
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1)
    manager.save(checkpoint_number=None if number is None else 1)
    real_remove = os.remove

    def killed_while_deleting(path):          # the old file goes, then the process dies
        real_remove(path)
        raise KeyboardInterrupt("killed")
    monkeypatch.setattr(os, "remove", killed_while_deleting)
    with pytest.raises(KeyboardInterrupt):
        manager.save(checkpoint_number=number)
    monkeypatch.setattr(os, "remove", real_remove)
    latest = tf.train.latest_checkpoint(str(tmp_path))
    assert latest == str(tmp_path / "ckpt-2")
    tf.train.Checkpoint(model=_Holder()).restore(latest)     # complete and loadable


def test_a_restarted_manager_deletes_checkpoints_beyond_max_to_keep(tmp_path):
    ckpt, _ = _checkpoint()
    first = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3)
    for _ in range(3):
        first.save()
    assert _npz_files(tmp_path) == ["ckpt-1.npz", "ckpt-2.npz", "ckpt-3.npz"]
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1)
    assert again.checkpoints == [str(tmp_path / f"ckpt-{i}") for i in (1, 2, 3)]
    assert again.latest_checkpoint == str(tmp_path / "ckpt-3")
    again.save()
    assert _npz_files(tmp_path) == ["ckpt-4.npz"]
    state = json.loads((tmp_path / "checkpoint").read_text())
    assert state == {"model_checkpoint_path": "ckpt-4", "all_model_checkpoint_paths": ["ckpt-4"]}


def test_a_restart_after_a_kill_mid_sweep_finishes_the_sweep_before_writing(tmp_path, monkeypatch):
    ckpt, _ = _checkpoint()
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1)
    manager.save()

    def killed(path):
        if os.path.exists(path):
            raise KeyboardInterrupt("killed before deleting")
        raise FileNotFoundError(path)
    monkeypatch.setattr(os, "remove", killed)
    with pytest.raises(KeyboardInterrupt):
        manager.save()
    monkeypatch.undo()
    assert _npz_files(tmp_path) == ["ckpt-1.npz", "ckpt-2.npz"]     # recorded, not yet swept
    seen = []
    real_write = tf.train.Checkpoint.write

    def write(self, prefix, options=None):
        seen.append(_npz_files(tmp_path))
        return real_write(self, prefix)
    monkeypatch.setattr(tf.train.Checkpoint, "write", write)
    restarted_ckpt, _ = _checkpoint()
    restarted = tf.train.CheckpointManager(restarted_ckpt, str(tmp_path), max_to_keep=1)
    restarted_ckpt.restore(restarted.latest_checkpoint)
    restarted.save()
    assert seen == [["ckpt-2.npz"]]
    assert _npz_files(tmp_path) == ["ckpt-3.npz"]


def test_manager_rejects_a_non_positive_max_to_keep(tmp_path):
    with pytest.raises(ValueError, match="Expected a positive integer or `None` for `max_to_keep`"):
        tf.train.CheckpointManager(_checkpoint()[0], str(tmp_path), max_to_keep=0)


# ------------------------------------------------------------------ bug 3: stale temporaries, closed files

_KILLED_SAVE = """
import os, sys
import numpy as np
import sim.tf as tf
from sim.storage import safe_io
path, kind = sys.argv[1], sys.argv[2]
real = safe_io.atomic_write
def dies_half_way(target, write):
    def half(f):
        f.write(b"PK\\x03\\x04 half of a checkpoint")
        f.flush()
        os._exit(9)                      # killed before the rename
    return real(target, half)
safe_io.atomic_write = dies_half_way
if kind == "weights":
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    m.save_weights(path)
else:
    class H: pass
    h = H(); h.w = tf.Variable([1.0])
    tf.train.Checkpoint(model=h).write(path)
"""


def _killed_save(path, kind):
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, "-c", _KILLED_SAVE, path, kind], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 9, run.stderr


def _temporaries(directory):
    return [f for f in os.listdir(directory) if ".tmp" in f]


def test_the_next_save_removes_the_temporary_file_of_a_killed_one(tmp_path):
    weights = str(tmp_path / "w.npz")
    _killed_save(weights, "weights")
    _killed_save(str(tmp_path / "ck"), "checkpoint")
    assert len(_temporaries(tmp_path)) == 2           # what a kill leaves behind
    others = ["ck.npz.tmp", ".tmp-x1y2.npz"]          # names anyone may use (issue 36, F5): kept
    for name in others:
        (tmp_path / name).write_bytes(b"not this saver's")
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    model.save_weights(weights)
    assert len(_temporaries(tmp_path)) == 3           # the weights' own temporary went
    ckpt, _ = _checkpoint()
    ckpt.write(str(tmp_path / "ck"))
    assert sorted(_temporaries(tmp_path)) == sorted(others)
    model.load_weights(weights)
    ckpt.restore(str(tmp_path / "ck"))


_CLOSED_FILES = """
import sim.tf as tf, tempfile, os
class H: pass
h = H(); h.w = tf.Variable([1.0])
d = tempfile.mkdtemp()
c = tf.train.Checkpoint(model=h)
p = c.save(os.path.join(d, "ckpt"))
c.restore(tf.train.latest_checkpoint(d))
m = tf.train.CheckpointManager(c, d, max_to_keep=1)
m.save(); m.save()
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
model.save_weights(os.path.join(d, "w.npz")); model.load_weights(os.path.join(d, "w.npz"))
print("ok")
"""


def test_no_file_is_left_open_under_dev_mode():
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, "-X", "dev", "-W", "error::ResourceWarning", "-c",
                          _CLOSED_FILES], env=env, capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "ok", run.stderr
    assert "ResourceWarning" not in run.stderr, run.stderr


# ------------------------------------------------------------------ bug 4: damaged and foreign files

def _good_checkpoint_bytes(tmp_path):
    ckpt, _ = _checkpoint()
    ckpt.write(str(tmp_path / "good"))
    return (tmp_path / "good.npz").read_bytes()


def _bad_crc(data):
    """The stored CRC-32 of the first member changed in its local header and central entry."""
    raw = bytearray(data)
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as z:
        info = z.infolist()[0]
    crc = info.CRC.to_bytes(4, "little")
    wrong = (info.CRC ^ 0xFFFF).to_bytes(4, "little")
    return bytes(raw).replace(crc, wrong)


def _corpus(tmp_path):
    """name -> (bytes, expected error type, catalogue problem key)."""
    good = _good_checkpoint_bytes(tmp_path)
    npy = tmp_path / "array.npy"
    np.save(npy, np.arange(3.0))
    no_meta = tmp_path / "no_meta.npz"
    np.savez(no_meta, v0=np.arange(3.0))
    bad_meta = tmp_path / "bad_meta.npz"
    np.savez(bad_meta, __meta__=np.array("[1, 2"), v0=np.arange(3.0))
    objects = tmp_path / "objects.npz"
    np.savez(objects, v0=np.array([{"a": 1}], dtype=object))
    DL = tf.errors.DataLossError
    return {
        "empty": (b"", DL, "empty"),
        "truncated": (good[: len(good) // 2], DL, "corrupt_zip"),
        "bad_crc": (_bad_crc(good), DL, "corrupt_zip"),
        "npy": (npy.read_bytes(), DL, "single_array"),
        "pickled": (pickle.dumps({"w": [1.0, 2.0]}), DL, "pickled"),
        "object_arrays": (objects.read_bytes(), DL, "pickled"),
        "json_object": (b"{}", DL, "not_npz"),
        "garbage": (bytes(range(256)) * 4, DL, "not_npz"),
        "no_metadata": (no_meta.read_bytes(), DL, "no_metadata"),
        "bad_metadata": (bad_meta.read_bytes(), DL, "bad_metadata"),
    }


def _problem_text(key):
    return i18n.t("checkpoint." + key).split("{")[0][:30]


def _load_through_every_api(tmp_path, data):
    """Write ``data`` where each loader looks, and collect what each raises."""
    raised = {}
    (tmp_path / "bad.npz").write_bytes(data)
    for name, load in [
            ("Checkpoint.restore", lambda: tf.train.Checkpoint(model=_Holder()).restore(
                str(tmp_path / "bad"))),
            ("load_weights", lambda: tf.keras.Sequential(
                [tf.keras.layers.Dense(1, input_shape=(2,))]).load_weights(
                str(tmp_path / "bad.npz")))]:
        with pytest.raises(Exception) as info:
            load()
        raised[name] = info.value
    return raised


@pytest.mark.parametrize("case", ["empty", "truncated", "bad_crc", "npy", "pickled",
                                  "object_arrays", "json_object", "garbage", "no_metadata",
                                  "bad_metadata"])
def test_a_damaged_or_foreign_file_gets_tensorflows_error_naming_it(tmp_path, case):
    data, kind, problem = _corpus(tmp_path)[case]
    for api, error in _load_through_every_api(tmp_path, data).items():
        text = str(error)
        assert type(error) is kind, (api, type(error), text)
        assert str(tmp_path / "bad.npz") in text, (api, text)
        assert _problem_text(problem) in text, (api, text)
        assert "allow_pickle" not in text, (api, text)


def test_every_bit_flip_is_caught_or_harmless(tmp_path):
    good = _good_checkpoint_bytes(tmp_path)
    ckpt, holder = _checkpoint(value=7.0)
    rng = np.random.default_rng(9)
    for offset in rng.choice(len(good), size=60, replace=False):
        data = bytearray(good)
        data[offset] ^= 1 << int(rng.integers(8))
        (tmp_path / "flip.npz").write_bytes(bytes(data))
        holder.w.assign([7.0, 14.0])
        try:
            ckpt.restore(str(tmp_path / "flip"))
        except tf.errors.DataLossError as e:
            assert str(tmp_path / "flip.npz") in str(e)
            continue
        assert holder.w.numpy().tolist() == [1.0, 2.0], offset   # a harmless byte (padding)


def test_a_missing_checkpoint_is_not_found(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for"):
        tf.train.Checkpoint(model=_Holder()).restore(str(tmp_path / "nothing"))


def test_state_files(tmp_path, caplog):
    (tmp_path / "checkpoint").write_text("{}")
    with pytest.raises(ValueError, match="Invalid checkpoint state loaded from"):
        tf.train.latest_checkpoint(str(tmp_path))
    (tmp_path / "checkpoint").write_bytes(b"\x00\xffnot json")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert tf.train.latest_checkpoint(str(tmp_path)) is None
    assert "Checkpoint ignored" in caplog.text


def test_a_damaged_backup_stops_fit_with_data_loss(tmp_path):
    backup = tmp_path / "backup"
    (backup / "chief").mkdir(parents=True)
    (backup / "chief" / "ckpt.npz").write_bytes(b"\x80\x04garbage")
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(tf.errors.DataLossError, match="ckpt.npz"):
        model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=1, verbose=0,
                  callbacks=[tf.keras.callbacks.BackupAndRestore(str(backup))])


# ------------------------------------------------------------------ bug 5: model.save then load_weights

def test_model_save_then_load_weights_skips_the_optimizer_slots(tmp_path):
    def build():
        m = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
        m.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse")
        return m
    model = build()
    model.fit(np.ones((4, 3)), np.ones((4, 2)), epochs=1, verbose=0)
    model.save(str(tmp_path / "m"))
    other = build()
    other.load_weights(str(tmp_path / "m"))
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)
