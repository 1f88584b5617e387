"""Where each worker writes a checkpoint under a multi-worker strategy (§10.2-10.3, T30)."""
import os
from types import SimpleNamespace

from sim.distribute import distributed_file_utils as dfu


def _strategy(task_id, chief, multi=True):
    ext = SimpleNamespace(should_checkpoint=chief, _task_id=task_id, _in_multi_worker_mode=lambda: multi)
    return SimpleNamespace(extended=ext)


def test_t30_non_chief_writes_to_a_temp_folder_then_removes_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    worker = _strategy(1, chief=False)
    path = "ckpt/model_{epoch}.h5".format(epoch=0 + 1)
    written = dfu.write_filepath(path, worker)
    assert written == os.path.join("ckpt", "workertemp_1", "model_1.h5")
    assert os.path.isdir("ckpt/workertemp_1")
    open(written, "w").close()
    dfu.remove_temp_dir_with_filepath(path, worker)
    assert not os.path.exists("ckpt/workertemp_1") and os.path.isdir("ckpt")


def test_t30_the_chief_writes_the_real_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    chief = _strategy(0, chief=True)
    assert dfu.write_filepath("ckpt/model_1.h5", chief) == "ckpt/model_1.h5"
    dfu.remove_temp_dir_with_filepath("ckpt/model_1.h5", chief)
    assert not os.path.exists("ckpt")          # nothing created, nothing removed


def test_single_worker_strategies_keep_the_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert dfu.write_dirpath("backup", _strategy(3, chief=False, multi=False)) == "backup"
    import sim.tf as tf
    assert dfu.write_dirpath("backup", tf.distribute.MirroredStrategy(["/gpu:0"])) == "backup"
    assert dfu.write_dirpath("backup", None) == "backup"     # the default strategy
    assert not os.path.exists("backup")


def test_a_temp_folder_is_not_nested_twice(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    worker = _strategy(2, chief=False)
    first = dfu.write_dirpath("backup/chief", worker)
    assert first == os.path.join("backup/chief", "workertemp_2")
    assert dfu.write_dirpath(first, worker) == first
