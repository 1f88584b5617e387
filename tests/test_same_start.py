"""SIM_SAME_START (sim/launch/same_start.py) on the simulated launch: the first run records the
weights Model.fit starts from, later runs start from them; Dataset.shuffle keeps the order; the
MNIST subset is cut to SIM_SAME_START_SAMPLES; mistakes are named. Real TensorFlow replays the
same start in tests/tf_crosscheck/test_seed_same_start.py."""
import json
from pathlib import Path

import numpy as np
import pytest

from sim.i18n import catalogs
from sim.launch import launch

PROBE = Path(__file__).with_name("seed_scripts") / "same_start_probe.py"


def _probe(tmp_path, **env):
    result = launch(PROBE, workers=1, echo=False, timeout=120, env=dict({"SIM_LANG": "en"}, **env))
    line = next((x for x in result.output.splitlines() if "PROBE " in x), None)
    return result, (json.loads(line.split("PROBE ", 1)[1]) if line else None)


def test_without_the_variable_nothing_changes(tmp_path):
    result, out = _probe(tmp_path)
    assert result.returncode == 0, result.output
    assert out["train"] == 6000 and "SAME-START-HISTORY" not in result.output
    assert sorted(out["order"]) == list(range(8))


def test_first_run_records_the_start_and_the_next_starts_from_it(tmp_path):
    weights = tmp_path / "start.npz"
    result, first = _probe(tmp_path, SIM_SAME_START=str(weights), SIM_SAME_START_SAMPLES="100")
    assert result.returncode == 0, result.output
    assert first["order"] == list(range(8))                 # shuffle keeps the order
    assert first["train"] == 100 and first["test"] == 1000
    with np.load(weights, allow_pickle=False) as saved:
        assert saved.files == ["w000", "w001"]
        np.testing.assert_array_equal(saved["w000"], first["weights"][0])   # lr 0: still the start
    assert "SAME-START-HISTORY {\"loss\": [" in result.output
    assert not list(tmp_path.glob(".start.npz.tmp-*"))       # no temporary file left behind
    # replace the recorded start: the next run must start from the file, not from its own init
    chosen = [np.full((4, 3), 0.25, "float32"), np.arange(3, dtype="float32")]
    np.savez(weights, w000=chosen[0], w001=chosen[1])
    result, second = _probe(tmp_path, SIM_SAME_START=str(weights))
    assert result.returncode == 0, result.output
    assert second["weights"] == [w.tolist() for w in chosen] and second["train"] == 6000


def test_weights_of_another_model_are_named_with_the_fix(tmp_path):
    weights = tmp_path / "other.npz"
    np.savez(weights, w000=np.zeros((5, 3), "float32"), w001=np.zeros(3, "float32"))
    result, out = _probe(tmp_path, SIM_SAME_START=str(weights))
    assert result.returncode == 1 and out is None
    assert "ValueError: the initial weights in" in result.output
    assert "(5, 3)" in result.output and "delete the file" in result.output


@pytest.mark.parametrize("value", ["0", "many"])
def test_a_bad_sample_count_stops_the_task_before_the_script(tmp_path, value):
    result, out = _probe(tmp_path, SIM_SAME_START=str(tmp_path / "w.npz"), SIM_SAME_START_SAMPLES=value)
    assert result.returncode == 1 and out is None
    assert f"SIM_SAME_START_SAMPLES={value!r} is not a number of training digits" in result.output


def test_messages_exist_in_every_language():
    cats = catalogs()
    for key in ("samestart.bad_samples", "samestart.shapes_differ", "samestart.first_samples"):
        for lang in ("en", "zh", "pt"):
            assert key in cats[lang], (lang, key)
