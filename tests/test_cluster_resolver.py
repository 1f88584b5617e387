"""TFConfigClusterResolver and SimpleClusterResolver (§6.2), on the seeds' TF_CONFIG examples."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sim.tf as tf
from sim import i18n
from sim.distribute import tf_config

ROOT = Path(__file__).resolve().parents[1]
Resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver

# Seed 003 (the multi-node tutorial), worker 0, exactly as it sets TF_CONFIG in Python.
SEED_003 = {'cluster': {'worker': ["10.1.10.58:12345", "10.1.10.250:12345"]},
            'task': {'type': 'worker', 'index': 0}}
# Seed 000 (the guide): three workers and two ps, this task worker 1.
SEED_000 = {"cluster": {"worker": ["host1:port", "host2:port", "host3:port"],
                        "ps": ["host4:port", "host5:port"]},
            "task": {"type": "worker", "index": 1}}


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_seed_003_python_tf_config(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps(SEED_003))
    r = Resolver()
    assert (r.task_type, r.task_id, r.rpc_layer, r.environment) == ("worker", 0, None, None)
    assert r.cluster_spec().as_dict() == {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}
    assert r.master() == "10.1.10.58:12345"
    assert r.master(rpc_layer="grpc") == "grpc://10.1.10.58:12345"
    task = tf_config.multi_worker_task(r)
    assert (task.is_chief, task.worker_count, task.id_in_cluster) == (True, 2, 0)
    monkeypatch.setenv("TF_CONFIG", json.dumps({**SEED_003, "task": {"type": "worker", "index": 1}}))
    task = tf_config.multi_worker_task()
    assert (task.is_chief, task.id_in_cluster, task.collective_leader) == (False, 1, "/job:worker/replica:0/task:0")


def test_seed_003_shell_lines_work_as_written(tmp_path):
    """The tutorial's shell prefix, run by a real shell, gives each process its task."""
    script = tmp_path / "worker.py"
    script.write_text("import sim.tf as tf\n"
                      "r = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
                      "print(r.task_type, r.task_id, r.cluster_spec().num_tasks('worker'))\n")
    lines = [
        """TF_CONFIG='{"cluster": {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}, "task": {"index": 0, "type": "worker"}}' python worker.py""",
        """TF_CONFIG='{"cluster": {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}, "task": {"index": 1, "type": "worker"}}' python worker.py""",
    ]
    env = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
    env["PYTHONPATH"] = str(ROOT)
    outputs = []
    for line in lines:
        line = line.replace(" python ", f" {sys.executable} ")
        out = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        outputs.append(out.stdout.strip())
    assert outputs == ["worker 0 2", "worker 1 2"]


def test_seed_000_guide_example_reads_but_is_refused_by_mwms(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps(SEED_000))
    r = Resolver()
    assert (r.task_type, r.task_id) == ("worker", 1)
    assert r.cluster_spec().num_tasks("ps") == 2
    assert r.master() == "host2:port"
    with pytest.raises(ValueError, match=r'"ps" job'):
        tf_config.multi_worker_task(r)


def test_tf_config_is_read_again_at_every_access(monkeypatch):
    r = Resolver()
    assert (r.task_type, r.task_id, r.cluster_spec().as_dict(), r.master()) == (None, None, {}, "")
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1", "b:1"]},
                                                "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}))
    assert (r.task_type, r.task_id, r.rpc_layer) == ("worker", 1, "grpc")
    assert r.master() == "grpc://b:1"


def test_constructor_arguments_override_tf_config(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": ["c:1"], "worker": ["a:1", "b:1"]},
                                                "task": {"type": "worker", "index": 0}, "environment": "cloud"}))
    r = Resolver(task_type="chief", task_id=0, rpc_layer="grpc+verbs", environment="google")
    assert (r.task_type, r.task_id, r.rpc_layer, r.environment) == ("chief", 0, "grpc+verbs", "google")
    assert r.master() == "grpc+verbs://c:1"
    assert Resolver().environment is None       # TF_CONFIG's "environment" is not read
    task = tf_config.multi_worker_task(r)
    assert (task.task_type, task.is_chief, task.rpc_layer) == ("chief", True, "grpc+verbs")
    r.task_type, r.task_id = "worker", 1
    assert tf_config.multi_worker_task(r).id_in_cluster == 2


def test_master_is_empty_for_a_one_task_cluster_and_session_master_wins(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": 0}}))
    assert Resolver().master() == ""
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1", "b:1"]},
                                                "task": {"type": "worker", "index": 0}, "session_master": "s:9"}))
    assert Resolver().master() == "s:9"


def test_no_cluster_key_gives_an_empty_spec_as_in_tensorflow(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"task": {"type": "worker", "index": 0}}))
    r = Resolver()
    assert r.cluster_spec().as_dict() == {} and not r.cluster_spec()
    assert (r.task_type, r.task_id) == ("worker", 0)


def test_bad_json_raises_json_decode_error_with_the_fix(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", "{'cluster': {}}")
    with pytest.raises(json.JSONDecodeError) as e:
        Resolver().cluster_spec()
    assert isinstance(e.value, ValueError)
    assert str(e.value).startswith("Expecting property name enclosed in double quotes")
    assert '{"cluster": {}}' in str(e.value)   # the learner's own config, as JSON


def test_bad_index_is_a_value_error_naming_the_field(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1"]}, "task": {"type": "worker", "index": "x"}}))
    with pytest.raises(ValueError, match=r'TF_CONFIG\["task"\]\["index"\]'):
        Resolver().task_id


def test_num_accelerators_counts_this_tasks_gpus(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps(SEED_003))
    from sim import runtime
    before = runtime.current_machine()
    try:
        runtime.use_machine("workstation-4gpu")
        assert Resolver().num_accelerators() == {"GPU": 4}
        runtime.use_machine("dgx-a100")
        assert Resolver().num_accelerators() == {"GPU": 8}
    finally:
        runtime.use_machine(before)


def test_simple_cluster_resolver():
    spec = tf.train.ClusterSpec({"chief": ["c:1"], "worker": ["a:1", "b:1"]})
    r = tf.distribute.cluster_resolver.SimpleClusterResolver(
        spec, task_type="worker", task_id=1, num_accelerators={"GPU": 2}, rpc_layer="grpc")
    assert r.cluster_spec() is spec
    assert (r.task_type, r.task_id, r.environment) == ("worker", 1, "")
    assert r.num_accelerators() == {"GPU": 2}
    assert r.master() == "grpc://"
    assert r.master("chief", 0) == "grpc://c:1"
    assert r.master("worker", 0, rpc_layer="http") == "http://a:1"
    task = tf_config.multi_worker_task(r)
    assert (task.id_in_cluster, task.worker_count, task.is_chief) == (2, 3, False)
    assert tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec({})).num_accelerators() == {}
    with pytest.raises(TypeError, match="cluster_spec must be a `tf.train.ClusterSpec`."):
        tf.distribute.cluster_resolver.SimpleClusterResolver({"worker": ["a:1"]})


def test_simple_resolver_without_a_task_is_refused_by_mwms():
    r = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["a:1", "b:1"]}))
    with pytest.raises(ValueError, match="^When `cluster_spec` is given, you must also specify"):
        tf_config.multi_worker_task(r)
    empty = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec({}))
    assert tf_config.multi_worker_task(empty) is None


def test_resolver_base_is_abstract_and_facade_names_exist():
    with pytest.raises(TypeError):
        tf.distribute.cluster_resolver.ClusterResolver()
    assert issubclass(Resolver, tf.distribute.cluster_resolver.ClusterResolver)
    assert issubclass(tf.distribute.cluster_resolver.SlurmClusterResolver,
                      tf.distribute.cluster_resolver.ClusterResolver)
    with pytest.raises(NotImplementedError):
        tf.distribute.cluster_resolver.GCEClusterResolver


def test_seed_002_worker_configs(monkeypatch):
    """Seed 002's two dicts (worker0/worker1.example.com), set with json.dumps as it shows."""
    for index in (0, 1):
        tf_config_worker = {
            'cluster': {
                'worker': ['worker0.example.com:12345', 'worker1.example.com:12345']
            },
            'task': {'type': 'worker', 'index': index}
        }
        monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config_worker))
        r = Resolver()
        assert (r.task_type, r.task_id) == ("worker", index)
        assert r.master() == f"worker{index}.example.com:12345"
        task = tf_config.multi_worker_task()
        assert (task.is_chief, task.worker_count) == (index == 0, 2)
