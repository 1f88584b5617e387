"""Keras sums gradients TO EACH VARIABLE's devices, as tf_keras's ``all_reduce_sum_gradients``
does (``batch_reduce_to(SUM, [(g, v), ...])``, §4.5): under MirroredStrategy an all-reduce onto
every mirror; under CentralStorageStrategy a gather to the CPU with no copy back to the GPUs,
and the update runs once there (§8.2, collectives.md §1.8). The numbers are unchanged."""
import numpy as np
import pytest

import sim.tf as tf

CENTRAL = tf.distribute.experimental.CentralStorageStrategy


@pytest.fixture(autouse=True)
def float64():
    """float64 weights and loss metric, so "unchanged numbers" can be checked to 1e-12."""
    old = tf.keras.backend.floatx()
    tf.keras.backend.set_floatx("float64")
    yield
    tf.keras.backend.set_floatx(old)


def _fit(strategy):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(32, 3))
    y = x @ np.array([[1.0], [-2.0], [0.5]])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)),
                                     tf.keras.layers.Dense(1)])
        model.set_weights([rng.normal(size=w.shape) * 0.5 for w in model.get_weights()])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9), loss="mse")
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    return model, history.history["loss"]


def _gradient_bytes(model):
    return sorted(float(v.numpy().nbytes) for v in model.trainable_variables)


def test_central_storage_gradients_go_to_the_cpu_only():
    s = CENTRAL()
    model, _ = _fit(s)
    trace = s.extended.last_step_trace
    assert not [e for e in trace if e.name == "ReductionToOneDevice/copy"]
    assert not [e for e in trace if e.kind == "transfer" and "→/gpu" in e.where
                and e.name != "read_variables"]
    for i in range(4):
        gathered = sorted(e.nbytes for e in trace if e.name == "ReductionToOneDevice"
                          and e.where == f"/gpu:{i}→/cpu:0")
        for nbytes in _gradient_bytes(model):     # every gradient reaches the CPU
            assert nbytes in gathered
    updates = [e for e in trace if e.name == "update"]    # metrics' merge_calls, then the optimizer's
    assert s.extended.parameter_devices == ("/device:CPU:0",)     # TF's name as given...
    assert updates and {e.where for e in updates} == {"/job:localhost/replica:0/task:0/device:CPU:0"}
    assert updates[-1].start >= max(e.end for e in trace if e.kind == "transfer")


def test_mirrored_still_all_reduces_onto_every_mirror():
    s = tf.distribute.MirroredStrategy()
    model, _ = _fit(s)
    trace = s.extended.last_step_trace
    assert [e for e in trace if e.name == "NcclAllReduce"]
    assert not [e for e in trace if e.name.startswith("ReductionToOneDevice")]
    for v in model.trainable_variables:
        parts = [p.numpy() for p in s.experimental_local_results(v)]
        assert len(parts) == 4 and all(np.array_equal(p, parts[0]) for p in parts)


@pytest.mark.parametrize("make", [CENTRAL, tf.distribute.MirroredStrategy], ids=["central", "mirrored"])
def test_fit_matches_one_device(make):
    ref_model, ref_loss = _fit(tf.distribute.OneDeviceStrategy("/gpu:0"))
    model, loss = _fit(make())
    for got, ref in zip(model.get_weights(), ref_model.get_weights()):
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(loss, ref_loss, rtol=0, atol=1e-12)


def _reduce_to_variable(strategy):
    """One step: each replica's gradient (replica r: r + 1) reduced to the variable's devices."""
    with strategy.scope():
        v = tf.Variable(np.zeros(5))

    def step():
        ctx = tf.distribute.get_replica_context()
        g = tf.ones_like(v) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float64)
        return ctx.merge_call(lambda st, grad: st.extended.batch_reduce_to(
            tf.distribute.ReduceOp.SUM, [(grad, v)]), args=(g,))[0]
    return strategy.run(step), strategy.extended.last_step_trace


def test_batch_reduce_to_a_central_variable_is_one_tensor_on_its_device():
    s = CENTRAL()
    out, trace = _reduce_to_variable(s)
    assert not isinstance(out, tf.distribute.DistributedValues)   # one copy, on the CPU
    np.testing.assert_array_equal(out.numpy(), np.full(5, 10.0))
    assert sorted(e.where for e in trace if e.name == "ReductionToOneDevice") == \
        [f"/gpu:{i}→/cpu:0" for i in range(4)]
    assert not [e for e in trace if e.name == "ReductionToOneDevice/copy"]


def test_batch_reduce_to_a_mirrored_variable_is_mirrored_on_its_devices():
    s = tf.distribute.MirroredStrategy()
    out, trace = _reduce_to_variable(s)
    parts = s.experimental_local_results(out)
    assert len(parts) == 4
    for p in parts:
        np.testing.assert_array_equal(p.numpy(), np.full(5, 10.0))
    assert [e.name for e in trace if e.kind == "transfer"] == ["NcclAllReduce"]
