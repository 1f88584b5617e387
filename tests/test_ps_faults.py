"""Faults as TensorFlow handles them (§7.3): a lost worker's closure runs again elsewhere (at least
once, re-executions counted); a lost ps raises UnavailableError at the coordinator."""
import pytest

import sim.tf as tf
from sim.course.plots.ps import timeline_data
from tests.ps_cluster import Resolver


def _setup(workers=3, ps=2):
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=workers, ps=ps))
    with strategy.scope():
        steps = tf.Variable(0.0)
        other = tf.Variable(0.0)
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)

    @tf.function
    def step():
        steps.assign_add(1.0)
        other.assign_add(2.0)
        return steps.read_value()
    return coordinator, steps, other, step


def _step_time(coordinator, step):
    """How long one closure takes on this cluster (measured on a scratch run)."""
    rv = coordinator.schedule(step)
    coordinator.join()
    rec = coordinator.cluster.records[-1]
    assert rv.fetch() is not None
    return rec.end - rec.start


def test_worker_killed_mid_epoch_loses_no_step():
    coordinator, steps, other, step = _setup()
    dt = _step_time(coordinator, step)
    steps.assign(0.0)
    other.assign(0.0)
    t0 = coordinator.cluster.now
    coordinator.fail_worker(1, at=t0 + 2.5 * dt)          # in the middle of its third step
    values = [coordinator.schedule(step) for _ in range(20)]
    coordinator.join()
    assert all(v.fetch() >= 1 for v in values)            # every scheduled step finished
    assert float(steps.numpy()) == 20.0 and float(other.numpy()) == 40.0
    cluster = coordinator.cluster
    assert cluster.reexecutions == 1
    aborted = [r for r in cluster.records if r.status == "aborted"]
    assert len(aborted) == 1 and aborted[0].worker == 1
    assert not [r for r in cluster.records if r.worker == 1 and r.start > aborted[0].start]
    data = timeline_data(cluster)
    assert data["aborted"].sum() == 1 and data["failures"][0][1:] == ("worker", 1)


def test_ps_killed_raises_unavailable_at_the_coordinator():
    coordinator, steps, other, step = _setup()
    dt = _step_time(coordinator, step)
    coordinator.fail_ps(0, at=coordinator.cluster.now + 1.5 * dt)
    values = [coordinator.schedule(step) for _ in range(30)]
    with pytest.raises(tf.errors.UnavailableError, match="Parameter server task 0"):
        coordinator.join()
    with pytest.raises(tf.errors.CancelledError):
        values[-1].fetch()
    assert ("ps", 0) in [f[1:] for f in coordinator.cluster.failures]
    assert any(r.status == "unavailable" for r in coordinator.cluster.records)


def test_all_workers_lost_is_an_error_not_a_hang():
    coordinator, steps, other, step = _setup(workers=1, ps=1)
    coordinator.fail_worker(0, at=0.0)
    coordinator.schedule(step)
    with pytest.raises(tf.errors.UnavailableError, match="every worker has failed"):
        coordinator.join()
