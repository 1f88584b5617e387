"""``python -m sim launch --engine tensorflow``: the same unedited script on another engine.

These run without TensorFlow: a stand-in ``tensorflow`` package (a few lines in tmp_path) shows
that each task's ``import sim.tf`` reaches whatever ``tensorflow`` its interpreter has, with its
own TF_CONFIG, and that the outcome is reported as the simulated launch reports it. The real
TensorFlow run is in tests/tf_crosscheck (``make test-tf``).
"""
import json
import os
import stat
import sys

import pytest

from sim.cli import launch as cli
from sim.launch import launch
from sim.launch.tf_engine import check_engine

SCRIPT = """\
import json, os, sys
import sim.tf as tf
from sim.tf.keras import layers
from sim.tf import keras
cfg = json.loads(os.environ["TF_CONFIG"])
print("engine", getattr(tf, "ENGINE", "sim.tf"), getattr(layers, "WHERE", layers.__name__), keras.layers is layers)
print("legacy keras", os.environ.get("TF_USE_LEGACY_KERAS"))
print("task", cfg["task"]["type"], cfg["task"]["index"], cfg["cluster"]["worker"][cfg["task"]["index"]])
if cfg["task"]["index"] == int(os.environ.get("FAIL_WORKER", "-1")):
    raise ValueError("worker gave up")
"""


@pytest.fixture
def fake_tf(tmp_path, monkeypatch):
    """A stand-in ``tensorflow`` package on PYTHONPATH (for this process's children)."""
    pkg = tmp_path / "fake" / "tensorflow"
    (pkg / "keras").mkdir(parents=True)
    (pkg / "__init__.py").write_text("ENGINE = 'stand-in tensorflow'\nfrom tensorflow import keras\n")
    (pkg / "keras" / "__init__.py").write_text("from tensorflow.keras import layers\n")
    (pkg / "keras" / "layers.py").write_text("WHERE = 'tensorflow.keras.layers'\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path / "fake"), os.environ.get("PYTHONPATH", "")]))
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    return str(script)


def _python_without_site(tmp_path):
    """An interpreter that cannot see any installed package (so surely no TensorFlow)."""
    exe = tmp_path / "bare-python"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} -S \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return str(exe)


def test_each_task_runs_the_unedited_script_on_the_tensorflow_its_python_has(fake_tf):
    result = launch(fake_tf, workers=2, engine="tensorflow", python=sys.executable, echo=False, timeout=60)
    assert result.returncode == 0 and result.failed is None
    addresses = set()
    for i in range(2):
        out = result.task("worker", i).output
        assert "engine stand-in tensorflow tensorflow.keras.layers True" in out
        assert "legacy keras 1" in out            # tf.keras 2, the Keras sim.keras follows
        line = next(x for x in out.splitlines() if x.startswith("task "))
        _, kind, index, address = line.split()
        assert (kind, int(index)) == ("worker", i) and address.startswith("127.0.0.1:")
        addresses.add(address)
    assert len(addresses) == 2                    # one free loopback port per task
    assert result.collectives == [] and result.trace == []


def test_the_same_script_still_runs_on_sim_by_default(fake_tf):
    result = launch(fake_tf, workers=1, echo=False, timeout=120)
    assert result.returncode == 0
    assert "engine sim.tf sim.tf.keras.layers True" in result.task("worker", 0).output


def test_a_failing_task_is_reported_as_the_simulated_launch_reports_it(fake_tf, monkeypatch):
    monkeypatch.setenv("FAIL_WORKER", "1")
    result = launch(fake_tf, workers=2, engine="tensorflow", python=sys.executable, echo=False, timeout=60)
    assert result.returncode == 1 and result.failed == "worker 1"
    assert "ValueError: worker gave up" in result.reason
    assert result.task("worker", 1).returncode == 1


def test_the_cli_reports_the_outcome(fake_tf, capsys):
    assert cli.main(["--engine", "tensorflow", "--python", sys.executable, "--workers", "2", fake_tf]) == 0
    out = capsys.readouterr().out
    assert "[worker 1] engine stand-in tensorflow" in out
    assert "2 tasks, all exited with status 0" in out


def test_without_tensorflow_it_says_how_to_install_it_exit_2(tmp_path, capsys):
    script = tmp_path / "train.py"
    script.write_text("import sim.tf as tf\n")
    bare = _python_without_site(tmp_path)
    assert cli.main(["--engine", "tensorflow", "--python", bare, "--workers", "2", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "TensorFlow is not installed" in err and "pip install '.[tf]'" in err and bare in err


def test_the_interpreter_comes_from_sim_tf_python_when_not_given(tmp_path, monkeypatch):
    bare = _python_without_site(tmp_path)
    monkeypatch.setenv("SIM_TF_PYTHON", bare)
    with pytest.raises(ValueError, match="not installed for " + bare):
        check_engine("tensorflow")


@pytest.mark.parametrize("argv, words", [
    (["--engine", "tf"], ["unknown engine 'tf'", "sim, tensorflow"]),
    (["--engine", "tensorflow", "--python", "/no/such/python"], ["'/no/such/python'", "--python PATH"]),
    (["--engine"], ["--engine needs a value"]),
])
def test_bad_engine_options_are_one_line(tmp_path, capsys, argv, words):
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n")
    assert cli.main(argv + ["--workers", "2", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for w in words:
        assert w in err


def test_fault_injection_is_refused_on_real_tensorflow(fake_tf, capsys):
    argv = ["--engine", "tensorflow", "--python", sys.executable, "--fail-at", "worker:1:3", "--workers", "2", fake_tf]
    assert cli.main(argv) == 2
    assert "--fail-at" in capsys.readouterr().err


def test_messages_exist_in_every_language():
    from sim.i18n import catalogs
    cats = catalogs()
    for key in ("tfengine.unknown_engine", "tfengine.no_python", "tfengine.not_installed", "tfengine.sim_only"):
        assert all(key in cats[lang] for lang in ("en", "zh", "pt"))
        assert "pip install '.[tf]'" in cats["zh"]["tfengine.not_installed"]
