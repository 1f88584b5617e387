"""A ``.keras`` file (and a ``.weights.h5``) crosses both ways between sim.tf and TensorFlow 2.21.

engine_scripts/keras_files.py, unchanged on both engines under Keras 3 and under tf-keras, trains and saves five
models (Sequential with Adam, functional CNN with SGD+momentum, an uncompiled Sequential with an
Embedding and Dropout, a registered subclassed model with RMSprop, an uncompiled functional
model with dict inputs, a nested Sequential with an L2 regularizer and two outputs); the other engine loads
them, predicts, and trains one more epoch from the loaded weights *and optimizer state*.

What must agree: the loaded model's predictions with the saver's own (float32 reading of the
same stored values: RTOL, and PREDICT_ATOL below), the class, weight shapes and optimizer step count exactly, and
the epoch trained after loading with the saving engine's own load-and-train (TRAIN tolerances
of test_engines.py: the engines sum batches in different orders).
"""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from test_engines import ATOL, RTOL, SCRIPTS, TRAIN_ATOL, TRAIN_RTOL, _env, _json

pytest.importorskip("tensorflow")

# One engine predicting from the other's weights: a prediction sums O(1) products, in an order
# each engine's BLAS picks by the CPU's vector instructions (AVX2 or AVX-512), so an output near
# zero keeps a few units in the last place of its terms. Four float32 ulps of 1.0; measured up
# to 1.8e-7 on an AVX2-only EPYC (0.0152 against 0.0152 + 1.2e-7), under 1e-7 with AVX-512.
PREDICT_ATOL = 4 * float(np.finfo(np.float32).eps)


def _run(engine, mode, directory, legacy="0"):
    cmd = [sys.executable, str(SCRIPTS / "keras_files.py"), mode, str(directory)]
    if engine == "tf":
        cmd[1:1] = ["-m", "sim.launch.tf_task"]
    p = subprocess.run(cmd, env=_env(TF_USE_LEGACY_KERAS=legacy), cwd=str(SCRIPTS),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return _json(p.stdout, f"{engine} {mode}")[0]


@pytest.fixture(scope="module", params=["keras3", "tf-keras"])
def runs(request, tmp_path_factory):
    """Keras 3 (TensorFlow 2.21's tf.keras), and tf-keras (TF_USE_LEGACY_KERAS=1), whose
    .keras layout differs (no name attributes, metrics saved, reverse attribute order)."""
    legacy = "1" if request.param == "tf-keras" else "0"
    out = {}
    for saver in ("sim", "tf"):
        directory = tmp_path_factory.mktemp(f"saved_by_{saver}_{request.param}")
        out[saver] = {"saved": _run(saver, "save", directory, legacy),
                      "loaded": {e: _run(e, "load", directory, legacy) for e in ("sim", "tf")}}
    return out


@pytest.mark.parametrize("saver,loader", [("sim", "tf"), ("tf", "sim")])
def test_keras_file_crosses_engines(runs, saver, loader):
    saved, loaded = runs[saver]["saved"], runs[saver]["loaded"]
    for name in ("seq", "fun", "emb", "sub", "nested", "seq_full"):   # seq_full: legacy .h5
        theirs, own = loaded[loader][name], loaded[saver][name]
        expected = saved[name.replace("_full", "")]
        for got, want in (zip(theirs["predict"], expected) if name == "nested" else
                          [(theirs["predict"], expected)]):    # nested: two outputs
            np.testing.assert_allclose(got, want, rtol=RTOL, atol=PREDICT_ATOL,
                                       err_msg=f"{name}: {loader} predicts {saver}'s file "
                                               "differently")
        assert theirs["class"] == own["class"] and theirs["weights"] == own["weights"], name
        if name not in ("emb", "nested"):
            assert (theirs["iterations"], theirs["optimizer"]) == (own["iterations"],
                                                                   own["optimizer"]), name
            assert theirs["iterations"] > 0, name      # the optimizer's state was saved
            assert ("after_training" in theirs) == ("after_training" in own), name
            if "after_training" in theirs:           # not for a legacy .h5 under Keras 3
                np.testing.assert_allclose(theirs["after_training"], own["after_training"],
                                           rtol=TRAIN_RTOL, atol=TRAIN_ATOL,
                                           err_msg=f"{name}: training on from {saver}'s file")
    for key in ("seq_weights", "seq_h5"):      # seq_h5: tf-keras's HDF5 weights, tf-keras only
        assert (key in loaded[loader]) == (key in loaded[saver])
        if key in loaded[loader]:
            np.testing.assert_allclose(loaded[loader][key], loaded[saver][key],
                                       rtol=RTOL, atol=ATOL)


def test_training_on_uses_the_saved_optimizer_state(runs):
    """Training on from a loaded file differs from training the same weights with a fresh
    Adam (so the agreement above holds the saved moments and step count, not only weights)."""
    for saver in ("sim", "tf"):
        for loader in ("sim", "tf"):
            run = runs[saver]["loaded"][loader]
            gap = np.abs(np.asarray(run["seq"]["after_training"])
                         - np.asarray(run["seq_fresh_optimizer"])).max()
            assert gap > 1e-4, (saver, loader, gap)


@pytest.mark.parametrize("legacy", ["0", "1"], ids=["keras3", "tf-keras"])
def test_damaged_files_get_tensorflows_exception_types_and_sim_names_the_file(tmp_path, legacy):
    """engine_scripts/keras_damage.py: 15 damaged or foreign files (truncated, empty, missing,
    not a zip, no config.json, no weights, config not JSON, foreign HDF5, a bit flip in the
    weights member, weights of fewer layers or other shapes...). The selected Keras's
    exception class each time (tf-keras differs in 6: it reads a non-zip as HDF5, OSError, and
    a foreign HDF5 without its groups, KeyError); sim's message names the file (Keras 3's does
    in 5 of them, tf-keras's in 2)."""
    results = {}
    for engine in ("sim", "tf"):
        directory = tmp_path / engine
        directory.mkdir()
        cmd = [sys.executable, str(SCRIPTS / "keras_damage.py"), str(directory)]
        if engine == "tf":
            cmd[1:1] = ["-m", "sim.launch.tf_task"]
        p = subprocess.run(cmd, env=_env(TF_USE_LEGACY_KERAS=legacy), cwd=str(SCRIPTS),
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
        results[engine] = _json(p.stdout, engine)[0]
    assert len(results["tf"]) == 15 and set(results["sim"]) == set(results["tf"])
    for case, (tf_type, _) in results["tf"].items():
        sim_type, sim_names_file = results["sim"][case]
        assert tf_type != "no error", case
        assert sim_type == tf_type, (case, sim_type, tf_type)
        assert sim_names_file, case


def _launch(engine, directory):
    cmd = [sys.executable, "-m", "sim", "launch", "--workers", "2"]
    cmd += ["--gpus-per-worker", "1"] if engine == "sim" else [
        "--engine", "tensorflow", "--python", sys.executable]
    p = subprocess.run(cmd + [str(SCRIPTS / "mwms_keras_save.py"), str(directory)],
                       env=_env(TF_USE_LEGACY_KERAS="0"), cwd=str(SCRIPTS), capture_output=True,
                       text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    return {int(line[len("[worker "):line.index("]")]): json.loads(line.split("ENGINE-JSON ", 1)[1])
            for line in p.stdout.splitlines()
            if line.startswith("[worker ") and "ENGINE-JSON " in line}


def _load_and_predict(engine, path):
    cmd = [sys.executable, str(SCRIPTS / "load_and_predict.py"), str(path)]
    if engine == "tf":
        cmd[1:1] = ["-m", "sim.launch.tf_task"]
    p = subprocess.run(cmd, env=_env(TF_USE_LEGACY_KERAS="0"), cwd=str(SCRIPTS),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return _json(p.stdout, f"{engine} load")[0]


def test_multi_worker_save_chief_writes_others_clean_up_and_the_file_crosses(tmp_path):
    """The multi-worker tutorial's save under MultiWorkerMirroredStrategy on 2 workers, through
    ``python -m sim launch`` on each engine: afterwards the directory holds the chief's
    ``keras-model.keras`` only (worker 1's ``workertemp_1`` is gone), and that file, loaded
    without a strategy by either engine, predicts what the chief's model did."""
    chief_outputs = {}
    for engine in ("sim", "tf"):
        directory = tmp_path / engine
        directory.mkdir()
        workers = _launch(engine, directory)
        assert sorted(workers) == [0, 1]
        np.testing.assert_allclose(workers[1]["predict"], workers[0]["predict"],
                                   rtol=RTOL, atol=ATOL)     # the workers trained in sync
        assert sorted(p.name for p in directory.iterdir()) == ["keras-model.keras"]
        chief_outputs[engine] = workers[0]["predict"]
        for loader in ("sim", "tf"):
            loaded = _load_and_predict(loader, directory / "keras-model.keras")
            np.testing.assert_allclose(loaded["predict"], workers[0]["predict"],
                                       rtol=RTOL, atol=PREDICT_ATOL, err_msg=f"{engine} -> {loader}")
            assert loaded["iterations"] == 2 * 4             # 2 epochs of 4 global batches
    np.testing.assert_allclose(chief_outputs["sim"], chief_outputs["tf"], rtol=TRAIN_RTOL,
                               atol=TRAIN_ATOL)
