"""The launched cluster's reducer times RING as TensorFlow's one ring and NCCL as its channels."""
import numpy as np

from sim.collectives import build
from sim.collectives.replay import replay
from sim.fabric.launch_machine import ClusterReducer, local_devices


def _run(reducer, algorithm, devices, n):
    buffers = [np.full(n, float(r + 1), dtype=np.float32) for r in range(len(devices))]
    results, seconds = reducer({"algorithm": algorithm}, buffers, devices)
    assert all(np.array_equal(r, np.full(n, sum(range(1, len(devices) + 1)), np.float32))
               for r in results)
    return seconds


def test_ring_crosses_each_host_through_one_nic_and_nccl_through_all():
    reducer = ClusterReducer("dgx-a100", hosts=2)
    devices = [d for h in range(2) for d in local_devices(reducer.machine, h)]
    n = 2**22                                           # 16 MiB of float32
    ring, nccl = _run(reducer, "ring", devices, n), _run(reducer, "nccl", devices, n)
    single = build("ring", len(devices), n, machine=reducer.machine, ranks=devices, itemsize=4,
                   channels=1)
    assert ring == replay(single, reducer.machine, 4 * n, devices)
    assert nccl < ring / 2                               # 8 NICs per node against one
