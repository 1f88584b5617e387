"""Issue 36: the file refusals, BackupAndRestore's folder and skip_mismatch, on TensorFlow 2.21
and on sim.tf (engine_scripts/hostile_files.py, unchanged on both), under Keras 3 and tf-keras.

What must agree: under Keras 3 every hostile file (HDF5 external storage in a .keras, a
.weights.h5 and a .h5; an ExternalLink; a 64 GiB shape bomb) is Keras's ValueError "Not
allowed: ..."; a mismatched width is ValueError; skip_mismatch warns and loads the layer that
fits; a backup_dir of BackupAndRestore's own is removed (Keras 3) or keeps only the folder
(tf-keras, which removes backup_dir/chief) and a learner's files in it survive under tf-keras.
Where sim differs on purpose, the test says so: tf-keras reads external storage and links (it
copies another file into the weights) and allocates a shape bomb (MemoryError), where sim
refuses as Keras 3 does; Keras 3 deletes a backup_dir with the learner's files in it, where sim
removes only what it wrote (docs/keras_versions.md).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from test_engines import SCRIPTS, _env, _json

pytest.importorskip("tensorflow")
HOSTILE = ("external_keras", "external_weights_h5", "external_h5", "external_link", "shape_bomb")


def _run(engine, legacy):
    cmd = [sys.executable, str(SCRIPTS / "hostile_files.py")]
    if engine == "tf":
        cmd[1:1] = ["-m", "sim.launch.tf_task"]
    p = subprocess.run(cmd, env=_env(TF_USE_LEGACY_KERAS=legacy, TF_CPP_MIN_LOG_LEVEL="3"),
                       cwd=str(SCRIPTS), capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return _json(p.stdout, engine)[0]


@pytest.fixture(scope="module", params=["0", "1"], ids=["keras3", "tf-keras"])
def both(request):
    return request.param, _run("sim", request.param), _run("tf", request.param)


def test_hostile_files_are_refused(both):
    legacy, sim, tf = both
    for case in HOSTILE:
        assert sim[case] == {"class": "ValueError", "not_allowed": True, "secret_shown": False}, case
        if legacy == "0":
            assert tf[case] == sim[case], case          # Keras 3 refuses every one of them
        elif case == "shape_bomb":
            assert tf[case]["class"] == "MemoryError"   # tf-keras allocates it
        else:
            assert tf[case] == {"class": "loaded", "secret_loaded": True}, case   # tf-keras reads it


def test_skip_mismatch_warns_and_loads_what_fits(both):
    _, sim, tf = both
    assert sim["mismatch"] == tf["mismatch"] and sim["mismatch"]["class"] == "ValueError"
    for engine in (sim, tf):
        assert engine["skip_mismatch"]["warned"]
        assert engine["skip_mismatch"]["kept"][0]       # the (4, 5) kernel: nothing fit it
    assert sim["skip_mismatch"]["took"] == tf["skip_mismatch"]["took"]


def test_the_backup_folders_fate(both):
    legacy, sim, tf = both
    assert sim["backup_own"] == tf["backup_own"]
    assert not sim["backup_own"]["chief"]
    if legacy == "1":
        assert sim["backup_learners"] == tf["backup_learners"] == {
            "dir": True, "notes": True, "chief": False}
    else:        # Keras 3 deletes the learner's notes with the folder; sim keeps them
        assert tf["backup_learners"] == {"dir": False, "notes": False, "chief": False}
        assert sim["backup_learners"] == {"dir": True, "notes": True, "chief": False}
