"""sim.launch.tf_configs: TF_CONFIG for every task of a described cluster, and the shell line per machine."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sim.launch.tf_configs as cluster_helper
from sim import i18n
from sim.distribute import tf_config

ROOT = Path(__file__).resolve().parents[1]

# Seed 003's two lines, character for character.
SEED_003_LINES = [
    """TF_CONFIG='{"cluster": {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}, "task": {"index": 0, "type": "worker"}}' python worker.py""",
    """TF_CONFIG='{"cluster": {"worker": ["10.1.10.58:12345", "10.1.10.250:12345"]}, "task": {"index": 1, "type": "worker"}}' python worker.py""",
]


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_the_tutorials_lines_are_reproduced_exactly():
    cluster = cluster_helper.describe(workers=["10.1.10.58", "10.1.10.250"])
    assert cluster_helper.shell_lines(cluster, "worker.py") == SEED_003_LINES


def test_print_commands_names_each_machine(capsys):
    cluster = cluster_helper.describe(workers=["10.1.10.58", "10.1.10.250:2222"])
    cluster_helper.print_commands(cluster, "worker.py")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "# on 10.1.10.58 (worker 0):"
    assert out[2] == "# on 10.1.10.250 (worker 1):"
    assert '"10.1.10.250:2222"' in out[3] and out[3].endswith("python worker.py")
    i18n.set_language("zh")
    cluster_helper.print_commands(cluster, "worker.py")
    assert capsys.readouterr().out.splitlines()[0] == "# 在 10.1.10.58 上（worker 0）："


def test_every_task_reads_back_its_role_and_exactly_one_leads():
    cluster = cluster_helper.describe(workers=3, chief=True, ps=2, evaluator="eval.example.com")
    assert cluster == {"chief": ["localhost:12345"],
                       "worker": ["localhost:12346", "localhost:12347", "localhost:12348"],
                       "ps": ["localhost:12349", "localhost:12350"],
                       "evaluator": ["eval.example.com:12345"]}
    tasks = cluster_helper.tasks(cluster)
    assert [(t.task_type, t.index) for t in tasks] == [
        ("chief", 0), ("worker", 0), ("worker", 1), ("worker", 2), ("ps", 0), ("ps", 1), ("evaluator", 0)]
    for t in tasks:
        assert json.loads(t.json) == t.config
        found = tf_config.validate(json.loads(t.json))
        assert (found.task_type, found.task_id) == (t.task_type, t.index)
        assert found.cluster_spec.task_address(t.task_type, t.index) == t.address
    training = [t for t in tasks if t.task_type in ("chief", "worker")]
    assert [tf_config.validate(t.config).is_chief for t in training] == [True, False, False, False]
    assert {json.dumps(t.config["cluster"], sort_keys=True) for t in tasks if t.task_type != "evaluator"} == {
        json.dumps({k: v for k, v in cluster.items() if k != "evaluator"}, sort_keys=True)}
    evaluator = tasks[-1].config
    assert evaluator["cluster"] == {"evaluator": ["eval.example.com:12345"]}


def test_workers_only_make_worker_0_the_chief_for_mwms():
    tasks = cluster_helper.tasks(cluster_helper.describe(workers=2))
    found = [tf_config.validate(t.config, "MultiWorkerMirroredStrategy") for t in tasks]
    assert [(f.is_chief, f.id_in_cluster, f.worker_count) for f in found] == [(True, 0, 2), (False, 1, 2)]


def test_a_host_named_twice_gets_the_next_port():
    cluster = cluster_helper.describe(workers=["node1", "node1", "node2"], port=2222)
    assert cluster == {"worker": ["node1:2222", "node1:2223", "node2:2222"]}


def test_rpc_layer_and_arguments_reach_the_line():
    cluster = cluster_helper.describe(workers=1)
    line = cluster_helper.shell_lines(cluster, "my train.py", args=["--epochs", 3], rpc_layer="grpc")[0]
    assert line.endswith("python 'my train.py' --epochs 3")
    assert '"rpc_layer": "grpc"' in line


def test_the_line_runs_in_a_real_shell(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import sim.tf as tf\n"
                      "r = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
                      "print(r.task_type, r.task_id, r.master())\n")
    env = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
    env["PYTHONPATH"] = str(ROOT)
    cluster = cluster_helper.describe(workers=2, chief=True)
    line = cluster_helper.shell_lines(cluster, "train.py", python=sys.executable)[2]
    out = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "worker 1 localhost:12347"


def test_loopback_for_the_launcher():
    tasks = cluster_helper.loopback(2, chief=True, ports=[7001, 7002, 7003])
    assert [(t.task_type, t.index, t.address) for t in tasks] == [
        ("chief", 0, "127.0.0.1:7001"), ("worker", 0, "127.0.0.1:7002"), ("worker", 1, "127.0.0.1:7003")]
    free = cluster_helper.loopback(4)
    ports = [int(t.address.rsplit(":", 1)[1]) for t in free]
    assert len(set(ports)) == 4 and all(p > 0 for p in ports)
    assert all(t.address.startswith("127.0.0.1:") for t in free)


@pytest.mark.parametrize("kwargs, error", [
    ({"workers": 2, "ports": [7001]}, ValueError),
    ({"workers": 2, "ports": [7001, 7001]}, ValueError),
])
def test_loopback_refuses_wrong_ports(kwargs, error):
    with pytest.raises(error, match="2 tasks need 2 different ports"):
        cluster_helper.loopback(**kwargs)


@pytest.mark.parametrize("workers, error", [("two", TypeError), (-1, ValueError), (True, TypeError)])
def test_describe_refuses_a_bad_count(workers, error):
    with pytest.raises(error, match="`workers` is a number of tasks"):
        cluster_helper.describe(workers=workers)


def test_two_chiefs_cannot_be_described():
    with pytest.raises(ValueError, match="There must be at most one 'chief' job."):
        cluster_helper.tasks({"chief": ["a:1", "b:1"], "worker": ["c:1"]})
