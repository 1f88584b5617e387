"""Lesson 10's comparison (sim/course/two_engines.py) where TensorFlow is not installed: the recorded
TensorFlow run is current (the simulator today reproduces the sim half of the record exactly),
the record agrees with itself to float32 rounding, and it names its provenance without a machine
path. The live TensorFlow half runs in make test-tf (tests/tf_crosscheck, lesson 10 under nbval)."""
import json

import pytest

from sim.course import two_engines

pytestmark = pytest.mark.lesson10


@pytest.fixture(scope="module")
def record():
    return two_engines.load_record()


def test_record_names_its_provenance_and_no_machine_path(record):
    prov = record["provenance"]
    assert prov["tensorflow"].startswith("2.21.") and prov["tf_keras"].startswith("2.21.")
    assert prov["made_by"] == "python -m tools.record_two_engines"
    text = json.dumps(record)
    assert "/home/" not in text and "/work/" not in text and "/tmp/" not in text and "\\\\" not in text


def test_the_recorded_engines_agree_to_float32_rounding(record):
    one = record["one_import"]
    for a, b in zip(one["sim"]["loss"], one["tensorflow"]["loss"]):
        assert abs(a - b) <= 1e-6 * abs(b)
    seed = record["seed_mwms"]
    assert seed["sim"]["accuracy"] == seed["tensorflow"]["accuracy"]
    for a, b in zip(seed["sim"]["loss"], seed["tensorflow"]["loss"]):
        assert abs(a - b) <= 1e-4 * abs(b)


def test_the_simulator_still_gives_the_recorded_numbers(record, tmp_path):
    """If this fails, sim's numbers changed: check them against TensorFlow and re-record
    (python -m tools.record_two_engines --python .venv-tf/bin/python)."""
    # OpenBLAS picks its float32 kernels by CPU (AVX-512 or AVX2), which moves a loss's last bits
    # (8e-8 relative seen between two machines); a change to sim moves it far more than 1e-6.
    now, recorded = two_engines.run_one_import("sim"), record["one_import"]["sim"]
    assert now.keys() == recorded.keys()
    for key in recorded:
        assert now[key] == pytest.approx(recorded[key], rel=1e-6, abs=0), key
    seed = two_engines.run_seed("sim", tmp_path / "start.npz")
    for key in ("loss", "accuracy", "simulated_seconds"):
        assert seed[key] == pytest.approx(record["seed_mwms"]["sim"][key], rel=1e-6, abs=0), key


def test_one_import_is_the_only_difference():
    tf_text = two_engines.ONE_IMPORT_SCRIPT.replace(two_engines.SIM_IMPORT, two_engines.TF_IMPORT)
    changed = [(a, b) for a, b in zip(two_engines.ONE_IMPORT_SCRIPT.splitlines(), tf_text.splitlines()) if a != b]
    assert changed == [("import sim.tf as tf", "import tensorflow as tf")]


def test_no_tensorflow_python_gives_none(tmp_path):
    assert two_engines.tensorflow_python(str(tmp_path / "no-python")) is None


def test_side_by_side_rounds_for_the_table():
    assert two_engines.side_by_side([1.23456789], [1.23456701], digits=4) == [(1, 1.2346, 1.2346, pytest.approx(8.8e-7))]


@pytest.mark.parametrize("lang, bigger", [("en", "3.0e-05"), ("pt", "3,0e-05"), ("zh", "3.0e-05")])
def test_a_difference_within_float32_rounding_prints_as_a_bound_every_cpu_shares(lang, bigger):
    """3e-8 on an AVX2 CPU and 0 on an AVX-512 one both print "< 1e-6"; a real disagreement
    prints its size, in the language's decimal mark."""
    assert two_engines.difference(0.0, lang) == two_engines.difference(3e-8, lang) == "< 1e-6"
    assert two_engines.difference(9.9e-7, lang) == "< 1e-6"
    assert two_engines.difference(3e-5, lang) == bigger
