"""CentralStorageStrategy's cost on the simulated clock (§8.2, collectives.md §1.8): variable
reads CPU → every GPU sharing the PCIe uplink, gradients to the CPU, the update once on the CPU.
Closed forms come from the preset's own link numbers."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute import _machine, timing
from sim.engine.counting import counting


def _links():
    """(latency CPU→GPU, uplink bandwidth, slowest other hop) of the current machine."""
    m = _machine.current_machine()
    cpu, gpu = m.devices_of("CPU")[0], m.devices_of("GPU")[0]
    hops = m.route(cpu, gpu)
    up = [link for link, _ in hops if cpu.name in (link.a, link.b)]
    assert len(up) == 1
    others = min(link.bandwidth for link, _ in hops if link is not up[0])
    return m.route_latency(cpu, gpu), up[0].bandwidth, others


def _sgd_step(variables, lr=0.01):
    def apply(grads):
        ctx = tf.distribute.get_replica_context()
        grads = ctx.all_reduce("SUM", grads)

        def merge(strategy, pairs):
            for g, v in pairs:
                strategy.extended.update(v, lambda var, gg: var.assign_sub(lr * gg), args=(g,),
                                         group=False)
        ctx.merge_call(merge, args=(list(zip(grads, variables)),))
    return apply


@pytest.mark.parametrize("n", [4, 2])
@pytest.mark.parametrize("params", [1 << 16, 3 * 100_003])
def test_read_phase_closed_form(n, params):
    latency, b_up, b_other = _links()
    assert n / b_up > 1 / b_other            # the uplink is the bottleneck
    s = tf.distribute.experimental.CentralStorageStrategy([f"/gpu:{i}" for i in range(n)])
    with s.scope():
        v = tf.Variable(np.ones(params, np.float32))
    s.run(lambda: tf.reduce_sum(v))
    trace = s.extended.last_step_trace
    reads = [e for e in trace if e.name == "read_variables"]
    assert sorted(e.where for e in reads) == [f"/cpu:0→/gpu:{i}" for i in range(n)]
    expected = latency + n * params * 4 / b_up
    for e in reads:
        assert e.kind == "transfer" and e.start == 0 and e.nbytes == params * 4
        assert e.end == pytest.approx(expected, rel=1e-9)
    first_compute = min(e.start for e in trace if e.kind == "compute")
    assert first_compute == pytest.approx(expected, rel=1e-12)


def test_only_variables_read_by_replicas_are_copied():
    s = tf.distribute.experimental.CentralStorageStrategy()
    with s.scope():
        a = tf.Variable(np.ones(10, np.float32))
        tf.Variable(np.ones(1000, np.float32))     # never read in the step
    s.run(lambda: a * 2.0 + a)                      # read twice, copied once
    reads = [e for e in s.extended.last_step_trace if e.name == "read_variables"]
    assert [e.nbytes for e in reads] == [40.0] * 4
    s.run(lambda: tf.constant(1.0))
    assert not [e for e in s.extended.last_step_trace if e.name == "read_variables"]
    m = tf.distribute.MirroredStrategy()
    with m.scope():
        b = tf.Variable(np.ones(10, np.float32))
    m.run(lambda: b * 2.0)
    assert not [e for e in m.extended.last_step_trace if e.name == "read_variables"]


def test_gradients_to_cpu_and_update_once_on_cpu():
    latency, b_up, _ = _links()
    s = tf.distribute.experimental.CentralStorageStrategy()
    cpu = _machine.current_machine().devices_of("CPU")[0]
    p = 50_000
    with s.scope():
        w = tf.Variable(np.ones(p, np.float32))
    x = tf.constant(np.arange(p, dtype=np.float32) / p)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * x)
        _sgd_step([w])([tape.gradient(loss, w)])
    before = timing.clock().now
    s.run(step)
    trace = s.extended.last_step_trace
    gather = [e for e in trace if e.name == "ReductionToOneDevice"]
    assert sorted(e.where for e in gather) == [f"/gpu:{i}→/cpu:0" for i in range(4)]
    for e in gather:
        assert e.end - e.start == pytest.approx(latency + 4 * p * 4 / b_up, rel=1e-9)
    updates = [e for e in trace if e.name == "update"]
    assert len(updates) == 1 and updates[0].where == cpu.name
    ref = tf.Variable(np.ones(p, np.float32))      # the same update, counted on its own
    with counting() as c:
        ref.assign_sub(0.01 * x)
    assert updates[0].end - updates[0].start == pytest.approx(
        timing.compute_seconds(cpu, c.flops, c.bytes, ops=c.ops), rel=1e-12)
    assert updates[0].start >= max(e.end for e in trace if e.kind == "transfer")
    np.testing.assert_allclose(w.numpy(), 1 - 0.01 * 4 * x.numpy(), rtol=0, atol=1e-6)
    assert s.extended.last_step_time == pytest.approx(max(e.end for e in trace), rel=1e-12)
    assert timing.clock().now - before == pytest.approx(s.extended.last_step_time, rel=1e-12)


def _train(strategy, x, y, steps=3, lr=0.05):
    """Linear regression with ~1M float64 parameters, plain SGD; returns (w, b, step time)."""
    rng = np.random.default_rng(1)
    with strategy.scope():
        w = tf.Variable(rng.normal(size=(x.shape[1], y.shape[1])) * 0.01, name="w")
        b = tf.Variable(np.zeros(y.shape[1]), name="b")
    apply = _sgd_step([w, b], lr)
    gbs = x.shape[0]

    def step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            err = tf.matmul(features, w) + b - labels
            loss = tf.nn.compute_average_loss(tf.reduce_sum(tf.square(err), axis=1),
                                              global_batch_size=gbs)
        apply(tape.gradient(loss, [w, b]))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat(steps).batch(gbs)
    for batch in strategy.experimental_distribute_dataset(ds):
        strategy.run(step, args=(batch,))
    return w.numpy(), b.numpy(), strategy.extended.last_step_time


def test_large_model_slower_than_mirrored_same_numbers():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 1024))
    y = rng.normal(size=(16, 1024))
    one = _train(tf.distribute.OneDeviceStrategy("/gpu:0"), x, y)
    mirrored = _train(tf.distribute.MirroredStrategy(), x, y)
    central = _train(tf.distribute.experimental.CentralStorageStrategy(), x, y)
    assert one[0].size >= 1_000_000
    for got in (mirrored, central):
        np.testing.assert_allclose(got[0], one[0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got[1], one[1], rtol=0, atol=1e-12)
    assert not np.allclose(one[1], 0)
    latency, b_up, _ = _links()
    reads = latency + 4 * one[0].nbytes / b_up
    assert central[2] > mirrored[2] + reads        # at least the read phase on top


def test_keras_fit_shows_reads_and_cpu_update():
    s = tf.distribute.experimental.CentralStorageStrategy()
    with s.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,), dtype="float64"),
                                     tf.keras.layers.Dense(1, dtype="float64")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    x = np.random.default_rng(0).normal(size=(16, 3))
    model.fit(x, x.sum(1, keepdims=True), batch_size=8, epochs=1, verbose=0)
    trace = s.extended.last_step_trace
    nbytes = sum(v.numpy().nbytes for v in model.trainable_variables)
    reads = [e for e in trace if e.name == "read_variables"]
    assert len(reads) == 4 and all(e.nbytes == nbytes for e in reads)
    assert any(e.name == "update" and "CPU" in e.where for e in trace)
