"""The pieces lesson 00 relies on: the strategy map, the sync/async toy model, its checker."""
import numpy as np
import pytest

from sim.course import strategy_map, sync_vs_async
from sim.course.exercises import lesson00_data_parallel as ex
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone


def test_support_table_matches_the_guide():
    assert strategy_map.support("Keras Model.fit", "CentralStorageStrategy") == "experimental"
    assert strategy_map.support("Estimator API", "TPUStrategy") == "not_supported"
    rows = strategy_map.table_rows()
    assert len(rows) == 4 and len(rows[0]) == 6


def test_synchronous_pays_for_the_slowest_worker():
    times = sync_vs_async.step_times(workers=4, steps=30, seed=3)
    sync = sync_vs_async.synchronous_time(times)
    assert sync == pytest.approx(times.max(axis=1).sum())
    assert sync_vs_async.asynchronous_updates_by(times, sync) > 4 * 30 - 1
    assert np.array_equal(times, sync_vs_async.step_times(workers=4, steps=30, seed=3))


def test_reference_solution_passes(capsys):
    def solution(w, x, y, r):
        return sum(2.0 * xs.T @ (xs @ w - ys) / len(x)
                   for xs, ys in zip(np.array_split(x, r), np.array_split(y, r)))
    assert ex.check_data_parallel_gradient(solution) is None
    assert "All 5 cases pass" in capsys.readouterr().out


@pytest.mark.parametrize("wrong, hint", [
    (ex._mean_of_means, "per-replica means"),
    (ex._sum_without_mean, "without dividing"),
    (ex._per_replica_divisor, "its own batch size"),
])
def test_known_mistakes_are_named(wrong, hint, capsys):
    with pytest.raises(ExerciseFailed, match=hint):
        ex.check_data_parallel_gradient(wrong)


def test_unfinished_function_is_reported_as_not_done():
    def stub(w, x, y, r):
        raise NotImplementedError()
    with pytest.raises(ExerciseNotDone, match="Not done yet"):
        ex.check_data_parallel_gradient(stub)


def test_asynchronous_workers_push_more_gradients_in_the_synchronous_time():
    """What lesson 00 shows: nobody waits, so more gradients arrive in the same time."""
    times = sync_vs_async.step_times(workers=4, steps=100, seed=0)
    sync = sync_vs_async.synchronous_time(times[:50])
    assert sync_vs_async.asynchronous_updates_by(times, sync) > 50 * 4
