"""Cross-device ops, packing and CommunicationOptions: vectors T26, T27 (§9)."""
import numpy as np
import pytest

import sim.tf as tf
from sim.distribute.cross_device_ops import select_cross_device_ops
from sim.distribute.packing import group_by_size, split_bounds
from sim.distribute.values import PerReplica


def test_t26_group_by_size():
    assert group_by_size([40, 40, 40, 200, 8], 64) == [[0, 1], [2, 3], [4]]
    assert group_by_size([100, 10, 10], 64) == [[0], [1, 2]]
    assert group_by_size([1, 2, 3], 0) == [[0, 1, 2]]


def test_t27_packs_and_options():
    assert [hi - lo for lo, hi in split_bounds(10, 3)] == [3, 3, 4]
    with pytest.raises(ValueError, match="NCCL all-reduce requires num_packs >= 0, but -1 is specified"):
        tf.distribute.NcclAllReduce(num_packs=-1)
    with pytest.raises(ValueError, match="HierarchicalCopy requires num_packs >= 0"):
        tf.distribute.HierarchicalCopyAllReduce(num_packs=-1)
    with pytest.raises(ValueError, match=r"Argument `bytes_per_pack` must be >=0, Received -1\."):
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=-1)
    opts = tf.distribute.experimental.CommunicationOptions(implementation="nccl")
    assert opts.implementation == tf.distribute.experimental.CommunicationImplementation.NCCL
    with pytest.raises(ValueError, match="Argument `implementation` must be instance of"):
        tf.distribute.experimental.CommunicationOptions(implementation=3)
    merged = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=5).merge(opts)
    assert merged.bytes_per_pack == 5 and merged.implementation == opts.implementation


@pytest.mark.parametrize("ops", [
    tf.distribute.NcclAllReduce(num_packs=3), tf.distribute.NcclAllReduce(num_packs=0),
    tf.distribute.HierarchicalCopyAllReduce(), tf.distribute.HierarchicalCopyAllReduce(num_packs=2),
    tf.distribute.ReductionToOneDevice()])
def test_batch_reduce_equals_exact_sum(ops):
    s = tf.distribute.MirroredStrategy(cross_device_ops=ops)
    rng = np.random.default_rng(1)
    grads = [[rng.normal(size=(4,)), rng.normal(size=(2, 3))] for _ in range(4)]
    values = [s.extended._tag_devices(PerReplica([tf.constant(grads[r][t]) for r in range(4)]))
              for t in range(2)]
    with s.scope():
        out = s.extended.batch_reduce_to("SUM", [(v, v) for v in values])
        mean = s.extended.reduce_to("MEAN", values[0], values[0])
    for t in range(2):
        exact = sum(grads[r][t] for r in range(4))
        for r in range(4):
            np.testing.assert_allclose(out[t].values[r].numpy(), exact, rtol=0, atol=1e-12)
    np.testing.assert_allclose(mean.values[2].numpy(), sum(g[0] for g in grads) / 4, atol=1e-12)
    assert s.extended.last_step_time is None or s.extended.last_step_time >= 0


def test_default_cross_device_ops_choice():
    assert type(tf.distribute.MirroredStrategy().extended._inferred_cross_device_ops).__name__ == "NcclAllReduce"
    assert type(select_cross_device_ops(("/job:localhost/replica:0/task:0/device:CPU:0",))).__name__ \
        == "ReductionToOneDevice"


def test_destinations_validation():
    ops = tf.distribute.ReductionToOneDevice()
    with pytest.raises(ValueError, match="destinations must be one of a `DistributedValues` object"):
        ops.reduce("SUM", PerReplica([tf.constant(1.0)]), 3)


def test_communication_time_on_clock():
    from sim.distribute import timing
    s = tf.distribute.MirroredStrategy()
    before = timing.clock().now
    s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones((1000,))))
    t = s.extended.last_step_time
    assert t > 0 and abs(timing.clock().now - before - t) < 1e-15
    kinds = {e.kind for e in s.extended.last_step_trace}
    assert kinds == {"compute", "transfer"}


def test_step_events_are_des_trace_events_on_the_runtime_clock():
    import sim.runtime
    from sim.des.trace import TraceEvent
    from sim.distribute import timing
    assert timing.clock() is sim.runtime.clock() and timing.TraceEvent is TraceEvent
    assert not hasattr(timing, "_Clock")
    s = tf.distribute.MirroredStrategy()
    start = sim.runtime.clock().now
    s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones((1000,))))
    trace = s.extended.last_step_trace
    assert trace and all(type(e) is TraceEvent for e in trace)
    on_clock = sim.runtime.clock().last_step_trace()
    assert [(e.kind, e.where) for e in on_clock] == [(e.kind, e.where) for e in trace]
    assert [e.start for e in on_clock] == pytest.approx([e.start + start for e in trace],
                                                        rel=0, abs=1e-15)
    assert sim.runtime.clock().steps[-1].end == pytest.approx(start + s.extended.last_step_time)
