"""The cluster a launch simulates: one host of the chosen preset per worker, on one network.

``cluster_machine(preset, hosts)`` builds it with ``sim.hardware.cluster``: the DGX presets on
their InfiniBand (8 NICs per node), the course's ``workstation-4gpu`` on 10 GbE (one NIC on its
CPU's PCIe root, TCP's goodput and per-message latency from ``sim.hardware.networks``), and
``cpu-cluster`` its Ethernet cluster.
sim.hardware is imported only when the machine is built (the launcher starts faster).
Host ``k`` is the task with ``id_in_cluster == k`` (chief first, then the workers).

``ClusterReducer`` is what the fabric calls for each cross-host all-reduce: sim.collectives'
executor sums the real arrays and its replay times the same schedule on this machine.
"""
from __future__ import annotations

CLUSTER_PRESETS = ("workstation-4gpu", "dgx-a100", "dgx-h100", "cpu-cluster")


def gpus_per_host(preset: str) -> int:
    return {"workstation-4gpu": 4, "dgx-a100": 8, "dgx-h100": 8, "cpu-cluster": 0}[preset]


def cluster_machine(preset: str, hosts: int, gpus: int | None = None):
    """The cluster of ``hosts`` hosts of ``preset`` (see CLUSTER_PRESETS), built by sim.hardware."""
    from sim.hardware import cluster, presets
    name = preset[:-len("-cluster")] if preset.endswith("-cluster") and preset != "cpu-cluster" else preset
    if name == "workstation-4gpu":
        return cluster(name, hosts, "10gbe", name="workstation-4gpu-cluster",
                       gpus=gpus if gpus is not None else 4)
    if name in ("dgx-a100", "dgx-h100"):
        return cluster(name, hosts, name=f"{name}-cluster")
    if name == "cpu-cluster":
        return presets.cpu_cluster(nodes=hosts)
    raise ValueError(preset)


def local_devices(machine, host: int, gpus: int | None = None) -> tuple:
    """The devices one worker's replicas run on: its host's first ``gpus`` GPUs, else its CPU."""
    found = machine.devices_of("GPU", host=host)
    if gpus is not None:
        found = found[:gpus]
    return tuple(d.name for d in (found or machine.devices_of("CPU", host=host)[:1]))


class ClusterReducer:
    """SUM all-reduce of every replica's flat buffer on the cluster machine: (results, seconds).

    Schedules and replayed times are cached by (algorithm, ranks, size, options): a training
    loop all-reduces the same sizes every step.
    """

    def __init__(self, preset: str, hosts: int, gpus: int | None = None):
        self._spec = (preset, hosts, gpus)
        self._machine = None
        self._cache: dict = {}

    @property
    def machine(self):
        if self._machine is None:
            self._machine = cluster_machine(*self._spec)
        return self._machine

    def __call__(self, header, buffers, devices):
        from sim.collectives import build, execute
        from sim.collectives.replay import replay
        algorithm = header.get("algorithm", "ring")
        options = dict(header.get("options") or {})
        if algorithm == "ring":
            # TensorFlow's RING is one ring through every replica, crossing each host through one
            # NIC; NCCL's rings use one channel per NIC (lesson 06 draws the difference).
            options.setdefault("channels", 1)
        p, length, itemsize = len(buffers), int(buffers[0].size), buffers[0].dtype.itemsize
        key = (algorithm, tuple(devices), length, itemsize, tuple(sorted(options.items())))
        hit = self._cache.get(key)
        if hit is None:
            schedule = build(algorithm, p, length, machine=self.machine, ranks=list(devices),
                             itemsize=itemsize, **options)
            seconds = replay(schedule, self.machine, length * itemsize, list(devices)) if length else 0.0
            hit = self._cache[key] = (schedule, float(seconds))
        schedule, seconds = hit
        results = execute(schedule, buffers) if length else [b.copy() for b in buffers]
        return [r.reshape(-1) for r in results], seconds
