"""An in-process cluster is one host (sim/distribute/ps/one_host.py): when every worker and ps
task of the strategy's cluster is a tf.distribute.Server started in this process, as TensorFlow's
parameter-server tutorial starts them, the coordinator simulates the tutorial's machine with no
setting; SIM_PS_MACHINE and machine= still choose."""
import pytest

import sim.tf as tf
from tests.ps_cluster import Resolver

# ports no other test uses: Servers live as long as the process, as TensorFlow's do
WORKERS = [f"localhost:{23000 + i}" for i in range(3)]
PS = [f"localhost:{24000 + i}" for i in range(2)]


def _in_process_resolver(workers=WORKERS, ps=PS, start_ps=True):
    spec = tf.train.ClusterSpec({"worker": workers, "ps": ps})
    for i in range(len(workers)):
        tf.distribute.Server(spec, job_name="worker", task_index=i, protocol="grpc")
    if start_ps:
        for i in range(len(ps)):
            tf.distribute.Server(spec, job_name="ps", task_index=i, protocol="grpc")
    return tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")


def _cluster(resolver, **kwargs):
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    return tf.distribute.coordinator.ClusterCoordinator(strategy, **kwargs).cluster


@pytest.fixture(autouse=True)
def _no_setting(monkeypatch):
    monkeypatch.delenv("SIM_PS_MACHINE", raising=False)


def test_servers_started_in_this_process_make_one_host():
    cluster = _cluster(_in_process_resolver())
    assert cluster.one_host
    assert len({d.host for d in cluster.worker_devices + cluster.ps_devices}) == 1


def test_a_cluster_without_its_servers_here_is_a_host_per_task():
    cluster = _cluster(Resolver(workers=3, ps=2))
    assert not cluster.one_host
    assert len({d.host for d in cluster.worker_devices + cluster.ps_devices}) == 5


def test_one_task_served_elsewhere_makes_it_a_cluster():
    """The ps tasks' servers not started here: they run in other processes."""
    workers = [f"localhost:{23100 + i}" for i in range(2)]
    cluster = _cluster(_in_process_resolver(workers, ["localhost:24100"], start_ps=False))
    assert not cluster.one_host


def test_the_setting_and_the_argument_still_choose(monkeypatch):
    workers, ps = [f"localhost:{23200 + i}" for i in range(2)], ["localhost:24200"]
    resolver = _in_process_resolver(workers, ps)
    assert not _cluster(resolver, machine="cluster").one_host
    monkeypatch.setenv("SIM_PS_MACHINE", "cluster")
    assert not _cluster(_in_process_resolver(workers, ps)).one_host
    monkeypatch.setenv("SIM_PS_MACHINE", "one-host")
    assert _cluster(Resolver(workers=2, ps=1)).one_host


def test_scheduled_functions_on_the_in_process_cluster_read_fresh_values():
    """TensorFlow 2.21, the tutorial's in-process cluster, three runs (lesson 07): six scheduled
    read-and-increment functions read 0 to 5, none stale. On a host per task they read 0, 0, 0."""
    workers, ps = [f"localhost:{23300 + i}" for i in range(3)], ["localhost:24300"]
    strategy = tf.distribute.ParameterServerStrategy(_in_process_resolver(workers, ps))
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
    with strategy.scope():
        counter = tf.Variable(0.0)

    @tf.function
    def read_and_increment():
        seen = counter.read_value()
        counter.assign_add(1.0)
        return seen

    values = [coordinator.schedule(read_and_increment) for _ in range(6)]
    coordinator.join()
    assert sorted(int(float(v.fetch())) for v in values) == list(range(6))
    assert float(counter.numpy()) == 6.0
