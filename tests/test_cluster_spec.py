"""tf.train.ClusterSpec (§6.3, T13) and the cluster catalogue."""
import json
import re
from pathlib import Path

import pytest

import sim.tf as tf
from sim import i18n

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_t13_sparse_job_from_json_string_keys():
    spec = tf.train.ClusterSpec({"worker": {"1": "b:2"}})
    assert spec.num_tasks("worker") == 1
    assert spec.task_indices("worker") == [1]
    assert spec.as_dict() == {"worker": {1: "b:2"}}
    assert spec.job_tasks("worker") == [None, "b:2"]
    with pytest.raises(ValueError, match=r"^No task with index 0 in job 'worker'$"):
        spec.task_address("worker", 0)


def test_dense_jobs_come_back_as_lists_and_keep_their_order():
    spec = tf.train.ClusterSpec({"worker": ["a:1", "b:1"], "chief": ("c:1",), "ps": {0: "p:1", 1: "q:1"}})
    assert spec.jobs == ["worker", "chief", "ps"]
    assert spec.as_dict() == {"worker": ["a:1", "b:1"], "chief": ["c:1"], "ps": ["p:1", "q:1"]}
    assert spec.task_address("ps", 1) == "q:1"
    assert spec.num_tasks("worker") == 2
    assert repr(spec) == "ClusterSpec({'chief': ['c:1'], 'ps': ['p:1', 'q:1'], 'worker': ['a:1', 'b:1']})"


def test_copy_sorts_jobs_and_equality_compares_with_dicts():
    spec = tf.train.ClusterSpec({"worker": ["a:1"], "chief": ["c:1"]})
    copy = tf.train.ClusterSpec(spec)
    assert copy.jobs == ["chief", "worker"]
    assert copy == spec
    assert spec == {"worker": {0: "a:1"}, "chief": {0: "c:1"}}
    assert spec != {"worker": {0: "a:2"}, "chief": {0: "c:1"}}
    assert not tf.train.ClusterSpec({})
    assert tf.train.ClusterSpec({"worker": []}).as_dict() == {"worker": {}}


def test_duplicate_addresses_are_accepted_as_in_tensorflow():
    assert tf.train.ClusterSpec({"worker": ["a:1", "a:1"]}).num_tasks("worker") == 2


@pytest.mark.parametrize("cluster, error, start", [
    (["a:1"], TypeError, "`cluster` must be a dictionary mapping one or more job names"),
    ({"worker": "a:1"}, TypeError, "The tasks for job 'worker' must be a list or a dictionary"),
    ({"worker": {"x": "a:1"}}, TypeError, "The tasks for job 'worker' must be a list or a dictionary"),
    ({1: ["a:1"]}, TypeError, "Job name 1 must be bytes or unicode"),
    ({"worker": [12345]}, TypeError, "Task address 12345 must be bytes or unicode"),
])
def test_bad_clusters_raise_tensorflows_type_errors(cluster, error, start):
    with pytest.raises(error) as e:
        tf.train.ClusterSpec(cluster)
    assert str(e.value) == start or str(e.value).startswith(start)
    assert "\n" not in str(e.value)          # English: TensorFlow's text alone


@pytest.mark.parametrize("lang, word", [("zh", "作业"), ("pt", "job")])
def test_unknown_job_is_explained_in_the_course_language(lang, word):
    i18n.set_language(lang)
    spec = tf.train.ClusterSpec({"worker": ["a:1"]})
    with pytest.raises(ValueError) as e:
        spec.num_tasks("chief")
    first, note = str(e.value).split("\n", 1)
    assert first == "No such job in cluster: 'chief'"
    assert word in note and '"chief"' in note and '"worker"' in note


def _used_keys():
    keys = set()
    for path in list((ROOT / "sim/distribute").glob("*.py")) + list((ROOT / "sim/distribute/cluster_resolver").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'(?:annotate|with_fix)\((?:[^()]|\([^()]*\))*?"([a-z_0-9]+)"', text, re.S))
    return keys


def test_cluster_catalogue_has_every_used_key_in_three_languages():
    catalog = json.loads((ROOT / "sim/i18n/catalogs/cluster.json").read_text(encoding="utf-8"))
    used = _used_keys()
    assert len(used) >= 20
    for lang in ("en", "zh", "pt"):
        assert set(catalog[lang]) == set(catalog["en"]), lang
        assert used <= set(catalog[lang]), (lang, sorted(used - set(catalog[lang])))
        for key, text in catalog[lang].items():   # same fields in every language
            assert set(re.findall(r"(?<!\{)\{(\w+)\}", text)) == set(
                re.findall(r"(?<!\{)\{(\w+)\}", catalog["en"][key])), (lang, key)
