"""Variables on the CPU (sim.scaleout.cpu_variables): forward reads per layer over PCIe, against
their closed form, and what overlapping the pushes changes."""
import pytest

from sim.scaleout import Communicator, simulate_step
from sim.scaleout.ranks import ring_ranks
from sim.workloads.roofline import compute_times
from sim.scaleout.sweep import cluster_of
from sim.workloads import workload


def _setup(strategy="central-storage"):
    m = cluster_of("dgx1-p100", 1)
    ranks = ring_ranks(m)
    return m, ranks, Communicator(m, ranks, strategy)


def test_each_layer_waits_for_its_weights():
    m, ranks, comm = _setup()
    model = workload("vgg16")
    seconds = compute_times(model, ranks[0], batch=64).forward      # the roofline's, per layer
    step = simulate_step(model, m, ranks, "central-storage", communicator=comm)
    read = done = 0.0
    for layer, f in zip(model.layers, seconds):  # read_k = sum of copies; f_k after max(f_{k-1}, read_k)
        read += comm.read_seconds(layer.gradient_bytes) if layer.gradient_bytes else 0.0
        done = max(done, read) + f
    assert step.forward == pytest.approx(done)
    assert step.forward > sum(seconds)                        # VGG-16's fc6 read is not hidden


def test_reads_share_the_pcie_switch_and_qpi():
    m, ranks, comm = _setup()
    nbytes = 64 * 2**20
    one = comm.read_seconds(nbytes, alone=True)
    assert one == pytest.approx(nbytes / 12e9, rel=0.01)      # one GPU: its PCIe Gen3 x16 (12 GB/s)
    # all eight at once: GPUs 4-7 cross QPI (6 GB/s) to socket 0, four at a time
    assert comm.read_seconds(nbytes) == pytest.approx(4 * nbytes / 6e9, rel=0.01)


def test_push_then_cpu_sum_at_its_memory_bandwidth():
    m, ranks, comm = _setup()
    nbytes = 2**20
    cpu = m.devices_of("CPU")[0]
    push = comm._copies(ranks, [cpu], nbytes)
    assert comm.seconds(nbytes) == pytest.approx(push + 9 * nbytes / cpu.memory_bandwidth)


def test_overlapped_pushes_hide_behind_backward_for_resnet50():
    m, ranks, comm = _setup()
    after = simulate_step("resnet50", m, ranks, "central-storage", communicator=comm, overlap=False)
    overlapped = simulate_step("resnet50", m, ranks, "central-storage", communicator=comm)
    assert overlapped.reduction.when == "per-pack"                 # the strategy's own default
    assert after.step_time == pytest.approx(after.forward + after.backward + after.communication)
    assert overlapped.step_time < after.step_time
    assert overlapped.step_time < 1.02 * overlapped.compute_alone
