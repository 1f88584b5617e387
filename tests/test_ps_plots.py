"""The ps pictures draw from the coordinator's records and from regime runs, in every language."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import sim.tf as tf  # noqa: E402
from sim import i18n  # noqa: E402
from sim.des import ComputeTime  # noqa: E402
from sim.scaling.problems import staleness_regression  # noqa: E402
from sim.scaling.staleness_regimes import run_async, run_sync  # noqa: E402
from sim.course.plots import ps as P  # noqa: E402
from tests.ps_cluster import Resolver  # noqa: E402


def _cluster_with_failure():
    strategy = tf.distribute.ParameterServerStrategy(Resolver(workers=3, ps=2))
    with strategy.scope():
        a, b = tf.Variable(0.0), tf.Variable(0.0)
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)

    @tf.function
    def step():
        a.assign_add(1.0)
        b.assign_add(1.0)
    for _ in range(12):
        coordinator.schedule(step)
    coordinator.fail_worker(1, at=1.2e-4)
    coordinator.join()
    return coordinator.cluster, a


def test_timeline_data_from_cluster_counts_lost_steps():
    cluster, a = _cluster_with_failure()
    data = P.timeline_data(cluster)
    assert data["aborted"].sum() == cluster.reexecutions == 1
    assert float(a.numpy()) == 12.0                 # the lost step ran again elsewhere
    assert data["failures"][0][1:] == ("worker", 1)
    assert all(set(p) == {0, 1} for p, bad in zip(data["ps"], data["aborted"]) if not bad)


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_every_picture_draws_in_every_language(lang):
    old = i18n.get_language()
    i18n.set_language(lang)
    try:
        cluster, _ = _cluster_with_failure()
        problem = staleness_regression()
        run = run_async(problem, 4, ComputeTime(exponential=1), until=50, lr=[0.1, 2.5])
        sync = run_sync(problem, 4, ComputeTime(exponential=1), until=50, backups=1)
        fig, axes = plt.subplots(1, 4, figsize=(16, 3))
        P.draw_timeline(axes[0], P.timeline_data(cluster))
        P.draw_timeline(axes[1], P.timeline_data(run, limit=40))
        P.draw_staleness_histogram(axes[2], run.staleness, 4)
        P.draw_time_to_loss(axes[3], [run, sync], target=0.01)
        labels = [tl.get_text() for tl in axes[0].get_yticklabels()]
        assert labels[0] == i18n.t("ps.ps_row", i=0) and labels[-1] == i18n.t("ps.worker_row", i=2)
        legend = [tx.get_text() for tx in axes[3].get_legend().get_texts()]
        assert any(i18n.t("ps.diverged") in s for s in legend)
        plt.close(fig)
    finally:
        i18n.set_language(old)


def test_staleness_counts():
    values, counts = P.staleness_counts([0, 2, 2, 3])
    assert values.tolist() == [0, 1, 2, 3] and counts.tolist() == [1, 0, 2, 1]


def test_demo_view_is_a_pure_function_of_its_sliders():
    a = P.demo_view(workers=4, spread=1.0, lr=0.3, until=60)
    b = P.demo_view(workers=4, spread=1.0, lr=0.3, until=60)
    np.testing.assert_array_equal(a["plain"].staleness, b["plain"].staleness)
    assert a["plain"].staleness.mean() == pytest.approx(3, rel=0.25)
    c = P.demo_view(workers=8, spread=1.0, lr=0.3, until=60)
    assert c["plain"].staleness.mean() > a["plain"].staleness.mean()
    fig = plt.figure()
    P.draw_demo(c, fig)
    assert len(fig.axes) >= 3
    plt.close(fig)
