"""multi_worker_util: is_chief, id_in_cluster, worker_count, collective_leader (§6.4, T9-T12)."""
import pytest

from sim import i18n
from sim.distribute import multi_worker_util as mwu


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_t9_no_chief_job_makes_worker_0_the_chief():
    c = {"worker": ["h:1", "h:2"]}
    assert mwu.is_chief(c, "worker", 0) is True
    assert mwu.is_chief(c, "worker", 1) is False
    assert mwu.collective_leader(c, "worker", 0) == "/job:worker/replica:0/task:0"
    assert mwu.worker_count(c, "worker") == 2
    assert mwu.id_in_cluster(c, "worker", 1) == 1


def test_t10_a_chief_job_leads_and_shifts_worker_ids():
    c = {"chief": ["a:1"], "worker": ["b:1", "c:1"]}
    assert mwu.is_chief(c, "worker", 0) is False
    assert mwu.is_chief(c, "chief", 0) is True
    assert mwu.id_in_cluster(c, "worker", 0) == 1
    assert mwu.id_in_cluster(c, "chief", 0) == 0
    assert mwu.worker_count(c, "worker") == 3
    assert mwu.collective_leader(c, "worker", 0) == "/job:chief/replica:0/task:0"


def test_t11_the_evaluator_is_its_own_chief():
    c = {"worker": ["a:1", "b:1"], "evaluator": ["e:1"]}
    assert mwu.is_chief(c, "evaluator", 0) is True
    assert mwu.worker_count(c, "evaluator") == 1
    assert mwu.collective_leader(c, "evaluator", 0) == ""
    assert mwu.id_in_cluster(c, "evaluator", 0) == 0
    assert mwu.worker_count(c, "worker") == 2


def test_empty_cluster_has_no_leader():
    assert mwu.collective_leader({}, None, None) == ""


@pytest.mark.parametrize("cluster, task_type, task_id, message", [
    ({"worker": ["a:1"]}, "master", 0,
     "Unrecognized task_type: 'master', valid task types are: \"chief\", \"worker\", \"evaluator\" and \"ps\"."),
    ({"worker": ["a:1", "b:1"]}, "worker", 2, "The `task_id` 2 exceeds the maximum id of worker."),
    ({"chief": ["a:1", "b:1"], "worker": ["c:1"]}, "worker", 0, "There must be at most one 'chief' job."),
    ({"worker": ["a:1"]}, "ps", 0, "`task_type` 'ps' not found in cluster_spec."),
    ({"worker": ["a:1"], "evaluator": ["e:1", "f:1"]}, "worker", 0, "There must be at most one 'evaluator' job."),
])
def test_t12_validation_messages_in_tensorflows_order(cluster, task_type, task_id, message):
    with pytest.raises(ValueError) as e:
        mwu.is_chief(cluster, task_type, task_id)
    assert str(e.value).split("\n")[0] == message


def test_t12_type_is_checked_before_membership():
    with pytest.raises(ValueError, match="^Unrecognized task_type: 'master'"):
        mwu.id_in_cluster({"worker": ["a:1"]}, "master", 5)


def test_negative_ids_pass_tensorflows_checks():
    assert mwu.id_in_cluster({"chief": ["a:1"], "worker": ["b:1"]}, "worker", -1) == 0


def test_ps_has_no_id_and_no_worker_count():
    c = {"worker": ["a:1"], "ps": ["p:1"]}
    with pytest.raises(ValueError, match=r"^There is no id for task_type 'ps'\n"):
        mwu.id_in_cluster(c, "ps", 0)
    with pytest.raises(ValueError, match=r"^Unexpected `task_type` 'ps'\n"):
        mwu.worker_count(c, "ps")
    assert mwu.is_chief(c, "ps", 0) is False


def test_a_clusterspec_is_accepted_like_a_dict():
    import sim.tf as tf
    spec = tf.train.ClusterSpec({"chief": ["a:1"], "worker": ["b:1"]})
    assert mwu.id_in_cluster(spec, "worker", 0) == 1
    with pytest.raises(ValueError, match="should be dict or a `tf.train.ClusterSpec`"):
        mwu.normalize_cluster_spec(["a:1"])


def test_in_multi_worker_mode_reads_tf_config(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert mwu.in_multi_worker_mode() is False
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": 0}}')
    assert mwu.in_multi_worker_mode() is True
