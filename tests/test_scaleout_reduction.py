"""When gradients are reduced (sim.scaleout.reduction) and Horovod's cycles (sim.scaleout.horovod),
against their closed forms."""
import math

import pytest

from sim.scaleout import Communicator, simulate_step
from sim.scaleout import horovod, reduction
from sim.scaleout.ranks import ring_ranks
from sim.scaleout.sweep import cluster_of


def test_each_strategy_defaults_to_its_framework():
    assert reduction.resolve("nccl") == reduction.Reduction("after-backward", None)
    assert reduction.resolve("ring").when == "after-backward"
    # CentralStorageStrategy: one reduce to the CPU per tensor, each as soon as it exists (E7)
    assert reduction.resolve("central-storage") == reduction.Reduction("per-pack", 0.0)
    assert reduction.resolve("nccl", bucket_mb=16) == reduction.Reduction("per-pack", 16)   # bytes_per_pack
    assert reduction.resolve("central-storage", overlap=False).when == "after-backward"
    assert reduction.resolve("parameter-server") == reduction.Reduction("per-pack", 0.0)
    assert reduction.resolve("horovod") == reduction.Reduction("horovod-cycle", 128.0, 1.0)
    assert reduction.resolve("horovod", overlap=False).when == "after-backward"
    assert reduction.resolve("nccl", overlap=True).when == "per-pack"
    with pytest.raises(ValueError, match="after-backward"):
        reduction.resolve("nccl", when="sometimes")


def test_fuse_keeps_each_group_within_the_threshold():
    assert horovod.fuse([4, 4, 4, 10, 1], 8) == [[0, 1], [2], [3], [4]]
    assert horovod.fuse([4, 4, 4], 100) == [[0, 1, 2]]


def test_a_gradient_waits_for_the_next_cycle_then_the_negotiation():
    c, n = 1e-3, 1e-4
    ready = [0.3e-3, 0.4e-3, 1.2e-3, 2.0e-3]          # the last one exactly on a cycle start
    rows, talks = horovod.schedule(ready, [10, 10, 10, 10], lambda b: b * 1e-6, c, n, 15, 1e12)
    starts = [start for _, _, start, _ in rows]
    assert [a for a, _ in talks] == pytest.approx([1e-3, 2e-3])
    # cycle 1 ms: gradients 0, 1 (fused twice would be 20 > 15 bytes: two all-reduces) and 2 is
    # not ready; cycle 2 ms: gradients 2 and 3 (20 bytes: again two)
    assert [b for b, *_ in rows] == [10, 10, 10, 10]
    assert starts == pytest.approx([1e-3 + n, 1e-3 + n + 1e-5, 2e-3 + n, 2e-3 + n + 1e-5])


def test_fusion_copies_in_and_out_at_memory_bandwidth():
    rows, _ = horovod.schedule([0.0, 0.0], [1e6, 1e6], lambda b: 0.0, 1e-3, 0.0, 64e6, 1e11)
    ((nbytes, _, start, end),) = rows
    assert nbytes == 2e6 and end - start == pytest.approx(4 * 2e6 / 1e11)


def test_negotiation_is_lg_p_messages_of_the_network_latency():
    m = cluster_of("pascal-pcie-4gpu", 16, "25gbe")
    ranks = ring_ranks(m)
    alpha = m.route_latency(ranks[0], ranks[-1])
    assert horovod.negotiation_seconds(m, ranks) == pytest.approx(math.ceil(math.log2(64)) * alpha)
    assert alpha > 25e-6


def test_after_backward_is_compute_plus_one_all_reduce():
    m = cluster_of("pascal-pcie-4gpu", 4, "25gbe")
    ranks = ring_ranks(m)
    comm = Communicator(m, ranks, "nccl")
    step = simulate_step("resnet50", m, ranks, communicator=comm)
    assert len(step.buckets) == 1
    nbytes = step.buckets[0][0]
    assert step.step_time == pytest.approx(step.compute + comm.seconds(nbytes))


def test_horovod_step_ends_after_the_cycle_that_follows_backward():
    m = cluster_of("pascal-pcie-4gpu", 4, "25gbe")
    ranks = ring_ranks(m)
    step = simulate_step("resnet50", m, ranks, "horovod", cycle_ms=5)
    end_of_backward = step.compute
    wake = math.ceil(end_of_backward / 5e-3) * 5e-3
    last_start = step.buckets[-1][2]
    assert last_start >= wake + horovod.negotiation_seconds(m, ranks) - 1e-12
    assert step.step_time > wake
    # a shorter cycle ends the step sooner
    assert simulate_step("resnet50", m, ranks, "horovod", cycle_ms=0.5).step_time < step.step_time


def test_mechanisms_name_what_shaped_the_step():
    from sim.scaleout.mechanisms import describe
    m = cluster_of("pascal-pcie-4gpu", 4, "25gbe")
    text = describe(simulate_step("resnet50", m, ring_ranks(m), "horovod").mechanisms)
    assert "Horovod cycle 1 ms" in text and "TCP" in text and "hidden" in text
    one = cluster_of("pascal-pcie-4gpu", 1)
    assert "after backward" in describe(simulate_step("resnet50", one, ring_ranks(one)).mechanisms)


def test_contention_stretches_backward_by_the_sm_share_of_each_overlap():
    from sim.scaleout.contention import stretch
    # one interval inside backward: exactly share x its length
    assert stretch(1.0, 3.0, [(0, 0, 1.5, 2.0)], [0.1]) == pytest.approx(3.0 + 0.05)
    # an interval past the end of backward: the stretched backward reaches into it (fixed point
    # e = 3 + 0.2 (e - 2.9), e = (3 - 0.58) / 0.8)
    assert stretch(1.0, 3.0, [(0, 0, 2.9, 5.0)], [0.2]) == pytest.approx((3 - 0.58) / 0.8)
    assert stretch(1.0, 3.0, [(0, 0, 4.0, 5.0)], [0.2]) == 3.0


def test_nccl_channels_take_their_sms_from_backward():
    from sim.scaleout.contention import sm_share
    m = cluster_of("dgx1-p100", 4, "edr-ib")
    ranks = ring_ranks(m)
    comm = Communicator(m, ranks, "nccl")
    on = simulate_step("resnet50", m, ranks, communicator=comm, bucket_mb=16)
    off = simulate_step("resnet50", m, ranks, communicator=comm, bucket_mb=16, contention=False)
    channels = comm.choices[on.buckets[0][0]][2]
    assert channels == 4 and sm_share(comm, on.buckets[0][0]) == pytest.approx(4 / 56)
    assert on.slowed > 0 and off.slowed == 0 and on.step_time >= off.step_time
    assert on.step_time - off.step_time <= on.slowed + 1e-12
    assert any(e.name == "slowed by NCCL" for e in on.events)
    cpu = simulate_step("resnet50", m, ranks, "central-storage", overlap=True, bucket_mb=0)
    assert cpu.slowed == 0                           # copy engines, not SMs


def test_nccl_takes_memory_bandwidth_by_the_bytes_its_ring_moves():
    """runRing (NVIDIA/nccl src/device/all_reduce.h): input read once, output written once, and
    2 (p - 1) chunks of S / p written into and read from the receive buffer."""
    from sim.scaleout.contention import hbm_bytes, hbm_share, slowdown, sm_share
    assert hbm_bytes(100, 8) == pytest.approx(100 * (2 + 4 * 7 / 8))
    assert hbm_bytes(100, 1) == 0
    m = cluster_of("dgx-a100", 1)
    comm = Communicator(m, ring_ranks(m), "nccl")
    nbytes = 2**26
    seconds = comm.seconds(nbytes)
    share = hbm_share(comm, nbytes, seconds)
    assert share == pytest.approx(min(0.5, hbm_bytes(nbytes, 8) / (seconds * 1555e9)))
    assert slowdown(comm, nbytes, seconds, 0.7) == pytest.approx(0.3 * sm_share(comm, nbytes) + 0.7 * share)


def test_every_all_reduce_call_pays_nccls_base_latency():
    from sim.scaleout.comm import call_latency
    assert call_latency("ring", "Simple") == pytest.approx(8.4e-6)
    assert call_latency("tree", "LL") == pytest.approx(6.8e-6)
    assert call_latency("ring", "") == pytest.approx(8.4e-6)          # not NCCL's choice: Ring/Simple
