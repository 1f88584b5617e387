"""ClusterCoordinator on the simulated clock: schedule/join/fetch, staleness, determinism (§7.3)."""
import numpy as np
import pytest

import sim.tf as tf
from sim.des import Slowdown
from tests.ps_cluster import Resolver

PSS = tf.distribute.ParameterServerStrategy
Coordinator = tf.distribute.coordinator.ClusterCoordinator


def counter_cluster(workers=2, **sim):
    strategy = PSS(Resolver(workers=workers, ps=1))
    with strategy.scope():
        w = tf.Variable(0.0)
    coordinator = Coordinator(strategy, **sim)

    @tf.function
    def step():
        seen = w.read_value()
        w.assign_add(1.0)
        return seen
    return coordinator, w, step


def test_closures_read_at_start_and_write_at_end():
    coordinator, w, step = counter_cluster(workers=2)
    values = [coordinator.schedule(step) for _ in range(6)]
    assert coordinator.done() is False          # one simulated event passes; six steps remain
    coordinator.join()
    assert coordinator.done()
    seen = [float(v.fetch()) for v in values]
    # two workers start together and read 0; a worker that finishes reads again at once, so
    # from then on each update is N - 1 = 1 update stale; every increment lands
    assert seen == [0.0, 0.0, 1.0, 2.0, 3.0, 4.0]
    assert float(w.numpy()) == 6.0
    cluster = coordinator.cluster
    assert cluster.staleness() == [0, 1, 1, 1, 1, 1]
    assert sorted({r.worker for r in cluster.records}) == [0, 1]
    assert all(r.end > r.start for r in cluster.records)
    assert cluster.now > 0


def test_one_coordinator_per_strategy_and_errors():
    coordinator, w, step = counter_cluster()
    assert Coordinator(coordinator.strategy) is coordinator
    with pytest.raises(ValueError, match="Only `tf.distribute.experimental.ParameterServerStrategy` "
                                         "is supported"):
        Coordinator(tf.distribute.OneDeviceStrategy("/cpu:0"))
    with pytest.raises(TypeError, match="only accepts a `tf.function` or a concrete function"):
        coordinator.schedule(lambda: 1)
    assert tf.distribute.experimental.coordinator.ClusterCoordinator is Coordinator


def test_application_error_is_raised_at_join_and_cancels_the_queue():
    coordinator, w, step = counter_cluster(workers=1)

    @tf.function
    def bad():
        raise tf.errors.InvalidArgumentError(None, None, "bad input")
    first = coordinator.schedule(bad)
    later = [coordinator.schedule(step) for _ in range(3)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad input"):
        coordinator.join()
    with pytest.raises(tf.errors.CancelledError):
        later[-1].fetch()
    with pytest.raises(tf.errors.InvalidArgumentError):
        first.fetch()
    coordinator.join()                         # the error was cleared


def test_same_seed_same_history_and_stragglers_change_it():
    def history(seed, sigma):
        _, w, _ = None, None, None
        coordinator, w, step = counter_cluster(workers=3, seed=seed,
                                               stragglers=Slowdown(sigma=sigma))
        for _ in range(30):
            coordinator.schedule(step)
        coordinator.join()
        return [(r.worker, r.start, r.end, r.staleness) for r in coordinator.cluster.records]
    assert history(1, 0.5) == history(1, 0.5)
    assert history(1, 0.5) != history(2, 0.5)
    a = history(1, 0.5)
    assert np.mean([s for *_, s in a]) > 0


def test_per_worker_dataset_and_strategy_run_inside_schedule():
    strategy = PSS(Resolver(workers=2, ps=2))
    with strategy.scope():
        total = tf.Variable(0.0)
    coordinator = Coordinator(strategy)

    def dataset_fn(input_context):
        assert input_context.num_input_pipelines == 1
        return tf.data.Dataset.from_tensor_slices(np.arange(4, dtype=np.float32)).repeat()

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(dataset_fn)

    iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))

    @tf.function
    def step(it):
        def replica_fn(x):
            total.assign_add(x)
            return x
        return strategy.reduce("SUM", strategy.run(replica_fn, args=(next(it),)), axis=None)

    results = [coordinator.schedule(step, args=(iterator,)) for _ in range(8)]
    coordinator.join()
    got = sorted(float(r.fetch()) for r in results)
    # each worker reads its own copy of the dataset: 0,1,2,3 twice
    assert got == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    assert float(total.numpy()) == 12.0
    assert coordinator.fetch({"a": results[0], "b": 3}) == {"a": results[0].fetch(), "b": 3}


def _train(strategy_or_none, steps=6, workers=1):
    """The guide's custom loop on a tiny regression, under PSS (via schedule) or no strategy."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], np.float32))[:, None]
    scope = strategy_or_none.scope() if strategy_or_none else tf.name_scope("plain")
    with scope:
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        model.build((None, 3))
        optimizer = tf.keras.optimizers.SGD(0.1)

    def dataset_fn(_=None):
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(16).repeat()

    @tf.function
    def step_fn(iterator):
        def replica_fn(xb, yb):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(xb) - yb) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        xb, yb = next(iterator)
        if strategy_or_none is None:
            return replica_fn(xb, yb)
        return strategy_or_none.reduce("SUM", strategy_or_none.run(replica_fn, args=(xb, yb)),
                                       axis=None)

    if strategy_or_none is None:
        it = iter(dataset_fn())
        for _ in range(steps):
            step_fn(it)
        return model.get_weights(), None
    coordinator = Coordinator(strategy_or_none)
    it = iter(coordinator.create_per_worker_dataset(dataset_fn))
    for _ in range(steps):
        coordinator.schedule(step_fn, args=(it,))
    coordinator.join()
    return model.get_weights(), coordinator


def test_one_worker_trains_exactly_like_a_plain_loop():
    plain, _ = _train(None)
    ps, coordinator = _train(PSS(Resolver(workers=1, ps=2)))
    for a, b in zip(plain, ps):
        np.testing.assert_array_equal(a, b)
    assert coordinator.cluster.staleness() == [0] * 6


def test_async_workers_apply_stale_gradients():
    plain, _ = _train(None, steps=6)
    ps, coordinator = _train(PSS(Resolver(workers=3, ps=1)), steps=6)
    assert max(coordinator.cluster.staleness()) >= 1
    assert not all(np.array_equal(a, b) for a, b in zip(plain, ps))
    # still learning: the kernel moved towards [1, -2, 0.5]
    assert np.linalg.norm(ps[0].ravel() - [1, -2, 0.5]) < np.linalg.norm([1, -2, 0.5])


def test_join_advances_the_runtime_clock():
    from sim.runtime import clock
    coordinator, w, step = counter_cluster(workers=2)
    before = clock().now
    for _ in range(4):
        coordinator.schedule(step)
    coordinator.join()
    assert clock().now - before == pytest.approx(coordinator.cluster.now)


def test_staleness_aware_option_scales_stale_updates():
    strategy = PSS(Resolver(workers=2, ps=1))
    with strategy.scope():
        w = tf.Variable(0.0)
    coordinator = Coordinator(strategy, staleness_aware=True)

    @tf.function
    def step():
        w.assign_sub(1.0)
    for _ in range(4):
        coordinator.schedule(step)
    coordinator.join()
    # staleness 0, 1, 1, 1: steps of 1, 1/2, 1/2, 1/2
    assert coordinator.cluster.staleness() == [0, 1, 1, 1]
    assert float(w.numpy()) == -2.5


def test_a_tf_function_method_of_a_module_can_be_scheduled(capsys):
    """TensorFlow schedules a tf.Module's tf.function method like any tf.function; its Python
    print runs at the trace, once, not in every closure."""
    strategy = PSS(Resolver(workers=2, ps=1))

    class Counter(tf.Module):
        def __init__(self):
            super().__init__()
            with strategy.scope():
                self.w = tf.Variable(0.0)

        @tf.function
        def step(self):
            print("traced the step")
            self.w.assign_add(1.0)
            return self.w.read_value()
    counter = Counter()
    coordinator = Coordinator(strategy)
    for _ in range(4):
        coordinator.schedule(counter.step)
    coordinator.join()
    assert float(counter.w.numpy()) == 4.0
    assert capsys.readouterr().out.count("traced the step") == 1
