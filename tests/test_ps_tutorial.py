"""The parameter-server tutorial (seed 001) runs end to end: its code is in tests/data/ps_tutorial.py,
unchanged but for the import and the cluster set-up cell (fixed ports instead of portpicker)."""
import random
import re
from pathlib import Path

import pytest

TUTORIAL = Path(__file__).with_name("data") / "ps_tutorial.py"


def sections(working_dir):
    text = TUTORIAL.read_text(encoding="utf-8").replace("/tmp/my_working_dir", str(working_dir))
    parts = re.split(r"^# --- section: (\w+)\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def run(names, working_dir, namespace=None):
    namespace = {} if namespace is None else namespace
    code = sections(working_dir)
    for name in names:
        exec(compile(code[name], f"ps_tutorial:{name}", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory, capsys_module=None):
    # The tutorial was written for tf.keras 2 (it makes tf.keras.optimizers.legacy optimizers):
    # on TensorFlow 2.21 it runs with tf-keras, TF_USE_LEGACY_KERAS=1 (sim/keras/version.py).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TF_USE_LEGACY_KERAS", "1")
        yield _run_tutorial(tmp_path_factory)


def _run_tutorial(tmp_path_factory):
    import sim.tf as tf
    # Keras's generator too (initial weights): other tests draw from it before this one runs
    tf.keras.utils.set_random_seed(0)
    random.seed(0)
    out_dir = tmp_path_factory.mktemp("ps_tutorial")
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        ns = run(list(sections(out_dir)), out_dir)
    return ns, buf.getvalue(), out_dir


def test_the_whole_tutorial_runs(tutorial):
    ns, out, _ = tutorial
    lines = out.splitlines()
    # the embedding's two shards, on the ps tasks the tutorial prints
    assert "/job:ps/replica:0/task:1/device:CPU:0" in lines
    assert "/job:ps/replica:0/task:0/device:CPU:0" in lines
    accuracies = [float(m) for m in re.findall(r"Finished epoch \d, accuracy is ([0-9.]+)\.", out)]
    assert len(accuracies) == 4 and accuracies[-1] >= 0.9
    assert re.search(r"Final loss is [0-9.]+", out)
    evals = [float(m) for m in re.findall(r"Evaluation accuracy: ([0-9.]+)", out)]
    assert len(evals) == 2 and min(evals) >= 0.9


def test_custom_loop_ran_on_the_simulated_workers(tutorial):
    ns, _, _ = tutorial
    cluster = ns["coordinator"].cluster
    applied = [r for r in cluster.records if r.status == "applied"]
    assert len(applied) >= 21 and {r.worker for r in applied} == {0, 1, 2}
    assert max(cluster.staleness()) >= 1          # three workers: some updates were stale
    assert ns["strategy"].extended._num_ps == 2


def test_fit_sections_wrote_what_tensorboard_and_the_checkpoint_callbacks_write(tutorial):
    ea = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    ns, out, working_dir = tutorial
    assert out.count("Epoch 5/5") == 2
    losses = [float(m) for m in re.findall(r"20/20 - \S+ - loss: ([0-9.]+)", out)]
    assert len(losses) == 10 and losses[4] < losses[0]
    acc = ea.EventAccumulator(str(working_dir / "log" / "train"))
    acc.Reload()
    assert len(acc.Scalars("epoch_loss")) >= 5
    # tf-keras saves a model to a directory as a SavedModel: sim's (sim/tf/saved_model_dir.py)
    assert (working_dir / "ckpt" / "sim_saved_model.json").exists()
    assert (working_dir / "ckpt" / "model.keras").exists()
    # BackupAndRestore removes what it wrote after fit, never a learner's files (issue 36, F2:
    # tf-keras removes backup_dir/chief); TF's parameter-server case was not re-measured
    assert not (working_dir / "backup" / "chief").exists()
