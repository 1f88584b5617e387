"""Synchronous training on N replicas equals one device on the same global batch (float64),
for every single-host strategy and cross-device op; loss scaling vectors T23 (§4.1-4.3)."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute import loss_scaling


def sgd_apply(grads_and_vars, lr=0.1):
    """What Keras's optimizer does under a strategy: SUM all-reduce, then update each copy."""
    grads_and_vars = list(grads_and_vars)
    ctx = tf.distribute.get_replica_context()
    grads = ctx.all_reduce(tf.distribute.ReduceOp.SUM, [g for g, _ in grads_and_vars])

    def merge(strategy, pairs):
        for g, v in pairs:
            strategy.extended.update(v, lambda var, gg: var.assign_sub(lr * gg), args=(g,),
                                     group=False)
    ctx.merge_call(merge, args=(list(zip(grads, [v for _, v in grads_and_vars])),))


def train(strategy, x, y, global_batch_size, reg=1e-3):
    with strategy.scope():
        w = tf.Variable(np.array([[0.5], [-0.3], [0.2]]), name="w")
        b = tf.Variable(np.array([0.1]), name="b")

    def step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            logits = tf.matmul(features, w) + b
            per_example = tf.reduce_sum(tf.square(logits - labels), axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch_size)
            loss += tf.nn.scale_regularization_loss(reg * tf.reduce_sum(tf.square(w)))
        grads = tape.gradient(loss, [w, b])
        sgd_apply(zip(grads, [w, b]))
        return loss

    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch_size)
    losses = [float(strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None))
              for batch in strategy.experimental_distribute_dataset(ds)]
    return w.numpy(), b.numpy(), losses


STRATEGIES = {
    "mirrored-nccl": lambda: tf.distribute.MirroredStrategy(),
    "mirrored-nccl-packs": lambda: tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.NcclAllReduce(num_packs=2)),
    "mirrored-nccl-nopack": lambda: tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.NcclAllReduce(num_packs=0)),
    "mirrored-hierarchical": lambda: tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.HierarchicalCopyAllReduce()),
    "mirrored-reduce-to-one": lambda: tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.ReductionToOneDevice()),
    "mirrored-2": lambda: tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"]),
    "central-storage": lambda: tf.distribute.experimental.CentralStorageStrategy(),
}


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_n_replicas_equal_one_device(name):
    rng = np.random.default_rng(7)
    x = rng.normal(size=(48, 3))
    y = x @ np.array([[1.0], [2.0], [-1.0]]) + 0.5 + 0.1 * rng.normal(size=(48, 1))
    ref = train(tf.distribute.OneDeviceStrategy("/gpu:0"), x, y, 8)
    got = train(STRATEGIES[name](), x, y, 8)
    np.testing.assert_allclose(got[0], ref[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1], ref[1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[2], ref[2], rtol=0, atol=1e-12)
    assert not np.allclose(got[0], [[0.5], [-0.3], [0.2]])      # it did train


def test_tpu_replicas_equal_one_device():
    from sim.distribute import _machine, tpu
    rng = np.random.default_rng(3)
    x = rng.normal(size=(32, 3))
    y = x @ np.array([[1.0], [2.0], [-1.0]])
    ref = train(tf.distribute.OneDeviceStrategy("/gpu:0"), x, y, 16)
    try:
        resolver = tpu.TPUClusterResolver(tpu="tpu-v3-8")
        tpu.experimental_connect_to_cluster(resolver)
        tpu.initialize_tpu_system(resolver)
        got = train(tf.distribute.TPUStrategy(resolver), x, y, 16)
    finally:
        _machine.use_machine("workstation-4gpu")
    np.testing.assert_allclose(got[0], ref[0], rtol=0, atol=1e-12)


def test_t23_compute_average_loss():
    two = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])

    def fn():
        return (loss_scaling.compute_average_loss([1., 2., 3., 4.]),
                loss_scaling.compute_average_loss([1., 2., 3., 4.], global_batch_size=10),
                loss_scaling.compute_average_loss([1., 2., 3., 4.], sample_weight=[1, 0, 1, 0]),
                loss_scaling.compute_average_loss(tf.zeros((0,))))
    out = two.run(fn)
    assert [float(v.values[0]) for v in out] == [1.25, 1.0, 0.5, 0.0]
    four = tf.distribute.MirroredStrategy()
    r = four.run(lambda: loss_scaling.scale_regularization_loss([1.0, 1.0]))
    assert float(r.values[3]) == 0.5


def test_loss_scaling_errors():
    two = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with two.scope():
        with pytest.raises(RuntimeError, match="You are calling `compute_average_loss` in cross "
                                               "replica context, while it was expected to be "
                                               "called in replica context."):
            loss_scaling.compute_average_loss([1., 2.])
        with pytest.raises(RuntimeError, match="You are calling `scale_regularization_loss` in cross"):
            loss_scaling.scale_regularization_loss([1.])
    assert float(loss_scaling.compute_average_loss([1., 2.])) == 1.5   # default strategy
    with pytest.raises(ValueError, match="global_batch_size must be non-negative"):
        loss_scaling.compute_average_loss([1., 2.], global_batch_size=-1)


def test_step_time_is_slowest_replica_plus_all_reduce():
    s = tf.distribute.MirroredStrategy()
    x = tf.ones((64, 64))
    s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.matmul(x, x)))
    trace = s.extended.last_step_trace
    compute_end = max(e.end for e in trace if e.kind == "compute")
    comm = [e for e in trace if e.kind == "transfer"]
    assert len(comm) == 1 and comm[0].start == pytest.approx(compute_end)
    assert s.extended.last_step_time == pytest.approx(comm[0].end)
