"""MultiWorkerMirroredStrategy's collectives without processes: what a worker sends the fabric
(packs, algorithm, arrival time) and what the fabric's reducer computes on the cluster machine."""
import numpy as np
import pytest

from sim.distribute.collective_all_reduce import CollectiveAllReduce, algorithm_for
from sim.distribute.communication_options import CommunicationImplementation as Impl
from sim.distribute.communication_options import CommunicationOptions
from sim.distribute.reduce_op import ReduceOp
from sim.distribute.values import PerReplica
from sim.engine.tensor import Tensor
from sim.hardware import network
from sim.fabric.launch_machine import ClusterReducer, cluster_machine, local_devices

GPUS = ("/job:worker/replica:0/task:0/device:GPU:0", "/job:worker/replica:0/task:0/device:GPU:1")


class FakeFabric:
    """Plays the other worker: its replicas contribute ``other`` times this worker's values."""

    def __init__(self, other=2.0):
        self.calls, self.other = [], other

    def all_reduce(self, buffers, devices, arrive, algorithm, options=None):
        self.calls.append((algorithm, [b.size for b in buffers], arrive))
        total = sum(buffers) * (1 + self.other)
        return [total.copy() for _ in buffers], arrive + 1e-3, 2e-3


def _values(sizes):
    out = []
    for n in sizes:
        v = PerReplica(tuple(Tensor(np.full(n, r + 1.0)) for r in range(2)))
        v._device_names = GPUS
        out.append(v)
    return out


def test_bytes_per_pack_groups_the_tensors_as_tensorflow_does():
    """T26's rule through the strategy: byte sizes [40, 40, 40, 200, 8] with 64 -> 3 collectives."""
    fabric = FakeFabric()
    ops = CollectiveAllReduce(GPUS, 4, CommunicationOptions(bytes_per_pack=64), fabric)
    values = _values([5, 5, 5, 25, 1])                  # float64: 40, 40, 40, 200, 8 bytes
    out = ops.batch_reduce_implementation(ReduceOp.SUM, [(v, v) for v in values], None)
    assert [sizes for _, sizes, _ in fabric.calls] == [[10, 10], [30, 30], [1, 1]]
    for result in out:                                  # (1 + 2) * 3: this worker and the other
        assert all(np.all(np.asarray(t._v) == 9.0) for t in result.values)
    mean = ops.batch_reduce_implementation(ReduceOp.MEAN, [(values[0], values[0])], None)[0]
    assert np.all(mean.values[0]._v == 9.0 / 4)         # MEAN divides by all 4 replicas (§9.2)


@pytest.mark.parametrize("implementation, devices, expected", [
    (Impl.AUTO, GPUS, "ring"), (Impl.RING, GPUS, "ring"), (Impl.NCCL, GPUS, "nccl"),
    (Impl.NCCL, ("/job:worker/replica:0/task:0/device:CPU:0",), "ring")])
def test_the_implementation_picks_the_schedule(implementation, devices, expected):
    assert algorithm_for(CommunicationOptions(implementation=implementation), devices) == expected


def test_cross_host_ring_time_is_the_closed_form_through_the_10gbe_nic():
    """2 workstations x 2 GPUs: each of the ring's 2(p-1) steps sends n/p bytes through the
    10 GbE link between the hosts (TCP's goodput of it, sim.hardware.networks). The closed form pays the cross-host path's latency on every
    step; the dependency-driven replay overlaps the latency of a step with the bytes of another
    where the ring's dependencies allow, so it lies between the bytes alone and the closed form,
    within a latency per step of it."""
    reducer = ClusterReducer("workstation-4gpu", 2, 2)
    m = reducer.machine
    devices = list(local_devices(m, 0, 2) + local_devices(m, 1, 2))
    n = 1 << 20                                          # float32 elements: 4 MiB
    buffers = [np.full(n, float(k), dtype=np.float32) for k in range(4)]
    results, seconds = reducer({"algorithm": "ring"}, buffers, devices)
    assert all(np.all(r == 6.0) for r in results)
    p, chunk = 4, n * 4 / 4
    alpha = m.route_latency(devices[1], devices[2])
    ten_gbe = network("10gbe")
    rate = ten_gbe.line_rate * ten_gbe.fraction           # TCP's goodput on the 10 GbE port
    closed = 2 * (p - 1) * (alpha + chunk / rate)
    assert 2 * (p - 1) * chunk / rate < seconds <= closed * (1 + 1e-9)
    assert seconds >= closed - 2 * (p - 1) * alpha
    _, nccl_seconds = reducer({"algorithm": "nccl"}, buffers, devices)
    assert nccl_seconds > 0


def test_cluster_machine_has_one_host_per_worker():
    m = cluster_machine("workstation-4gpu", 3, 2)
    assert m.hosts == [0, 1, 2] and len(m.gpus) == 6
    assert local_devices(m, 2) == ("/job:worker/replica:0/task:2/device:GPU:0",
                                   "/job:worker/replica:0/task:2/device:GPU:1")
    dgx = cluster_machine("dgx-a100", 2)
    assert len(dgx.nics(1)) == 8 and local_devices(dgx, 1, 2)[1].endswith("task:1/device:GPU:1")
    assert local_devices(cluster_machine("cpu-cluster", 2), 1) == ("/job:worker/replica:0/task:1/device:CPU:0",)
