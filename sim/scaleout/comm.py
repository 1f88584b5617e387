"""How long one bucket's gradients take to synchronise, per strategy, on the course's simulator.

* ``ring``, ``nccl``, ``hierarchical``: MultiWorkerMirrored / Mirrored all-reduce; the schedule of
  ``sim.collectives.build`` replayed on the machine (``ring`` and ``nccl`` use a channel per NIC
  across nodes; ``nccl`` is NCCL's own choice of ring or tree).
* ``horovod``: Horovod's ring all-reduce (Sergeev & Del Balso 2018: one ring over all ranks, the
  Baidu algorithm), i.e. ``ring`` with one channel.
* ``nccl1``: TensorFlow 1.x's ``tf.contrib.nccl``, which built NCCL 1 from source (``workspace.bzl``
  ``nccl_archive``: ``nvidia/nccl`` commit ``ccfc4567``, 1.3.x; NCCL 2 was not open source until
  2.3). NCCL 1 makes ONE ring through the GPUs in their NVML index order (``src/core.cu``:
  ``orderRanks`` sorts by ``nvmlDeviceGetIndex``), whatever the links: ``ring`` with one channel
  over the GPUs in numbering order (``sim.scaleout.ranks.ring_ranks(..., numbering=True)``). On a
  DGX-1 the hops 3 -> 4 and 7 -> 0 have no NVLink and cross the CPUs' QPI.
* ``central-storage``: CentralStorageStrategy keeps the variables on the host CPU (host 0's):
  every GPU copies its gradients there and the CPU sums them (reading the ``p`` copies and
  writing one, ``(p + 1) x bytes`` at its memory bandwidth, collectives.md §4.1); copies run on
  ``sim.des`` (shared links).
* ``parameter-server``: ``ps`` tasks on the CPUs of hosts 0, 1, ... (round-robin), variables
  round-robin over them so each holds ``1/ps`` of a pack (assumed balanced); every GPU pushes
  its slice to each task, all at once, on ``sim.des``.

For both, the new weights travel in the next step's forward pass (``read_seconds``,
``sim.scaleout.cpu_variables``), not at the end of this one.

Each all-reduce also pays its call's fixed cost: NCCL's base latency of the algorithm and protocol
it runs (``NVIDIA/nccl`` ``src/graph/tuning.cc`` ``baseLat``: Ring 6.6 / 14.0 / 8.4 µs for LL,
LL128, Simple; Tree 6.8 / 14.0 / 8.4, ``sim.collectives.nccl_model.BASE_LAT``), the kernel launch
and setup NCCL's own model charges once per call; the replay gives the hops' latencies and the
bytes' time. A schedule that is not NCCL's choice (``ring``, ``hierarchical``, Horovod's ring)
pays the Ring/Simple base (NCCL 1 too: its source has no cost model).

Every answer is cached per (strategy, bytes): a step has at most two bucket sizes.
"""
from __future__ import annotations

STRATEGIES = ("ring", "nccl", "hierarchical", "horovod", "nccl1", "central-storage", "parameter-server")
ALLREDUCE = {"ring": ("ring", {}), "nccl": ("nccl", {}), "hierarchical": ("hierarchical", {}),
             "horovod": ("ring", {"channels": 1}), "nccl1": ("ring", {"channels": 1})}
IN_NUMBERING_ORDER = ("nccl1",)     # strategies whose ring ignores the NVLink graph


def call_latency(algorithm: str, protocol: str) -> float:
    """Seconds NCCL charges once per collective call (module docstring)."""
    from sim.collectives.nccl_model import BASE_LAT, PROTOCOLS, RING, SIMPLE, TREE
    table = BASE_LAT[TREE if str(algorithm).startswith(TREE) else RING]
    return table[PROTOCOLS.index(protocol if protocol in PROTOCOLS else SIMPLE)] * 1e-6


class Communicator:
    """Times bucket synchronisations of ``strategy`` over ``ranks`` (GPUs) of ``machine``."""

    def __init__(self, machine, ranks: list, strategy: str = "nccl", ps: int = 1):
        if strategy not in STRATEGIES:
            from sim.i18n import join_list, t
            raise ValueError(t("scale.unknown_strategy", name=strategy, known=join_list(STRATEGIES)))
        self.machine, self.ranks, self.strategy, self.ps = machine, list(ranks), strategy, ps
        self._cache: dict = {}
        self._route_plans: dict = {}    # shared by every copy's simulator: one routing per pair list
        self.choices: dict = {}         # bytes -> what the collective chose (algorithm, protocol)

    def seconds(self, nbytes: int) -> float:
        """Seconds to synchronise ``nbytes`` of gradients (one bucket) across all ranks."""
        if nbytes <= 0 or len(self.ranks) == 1 and self.strategy in ALLREDUCE:
            return 0.0
        if nbytes not in self._cache:
            self._cache[nbytes] = self._time(int(nbytes))
        return self._cache[nbytes]

    def _time(self, nbytes: int) -> float:
        if self.strategy in ALLREDUCE:
            from sim.collectives import build
            from sim.collectives.replay import replay
            algorithm, options = ALLREDUCE[self.strategy]
            count = max(1, nbytes // 4)
            sched = build(algorithm, len(self.ranks), count, machine=self.machine,
                          ranks=self.ranks, itemsize=4, **options)
            info = sched.info
            self.choices[nbytes] = (info.get("nccl_algorithm", algorithm), info.get("nccl_protocol", ""),
                                    int(info.get("channels", 1)))
            return replay(sched, self.machine, count * 4, self.ranks) + call_latency(*self.choices[nbytes][:2])
        if self.strategy == "central-storage":
            cpu = self.cpus()[0]
            reduce = (len(self.ranks) + 1) * nbytes / cpu.memory_bandwidth
            return self._copies(self.ranks, [cpu], nbytes) + reduce
        return self._copies(self.ranks, self.ps_tasks(), nbytes / self.ps)

    def read_seconds(self, nbytes: int, alone: bool = False) -> float:
        """Seconds for every GPU (or the first alone) to copy ``nbytes`` of weights from the CPU."""
        key = ("read", int(nbytes), alone)
        if key not in self._cache:
            tasks = [self.cpus()[0]] if self.strategy == "central-storage" else self.ps_tasks()
            share = nbytes / len(tasks)
            gpus = self.ranks[:1] if alone else self.ranks
            self._cache[key] = self._copies(gpus, tasks, share, to_tasks=False)
        return self._cache[key]

    def cpus(self) -> list:
        if not hasattr(self, "_cpus"):             # the machine's CPUs, listed once
            self._cpus = self.machine.devices_of("CPU")
        return self._cpus

    def ps_tasks(self) -> list:
        """The CPU of host ``k % hosts`` for ps task ``k`` (two tasks may share a host's CPU)."""
        cpus = self.cpus()
        return [cpus[k % len(cpus)] for k in range(self.ps)]

    def _copies(self, gpus, tasks, nbytes: float, to_tasks: bool = True) -> float:
        """Seconds for every GPU to copy ``nbytes`` to each task (or from it), all started together
        on ``sim.des``. Two tasks on one CPU make one copy of their bytes, summed task by task."""
        from sim.des import Simulator
        per_cpu: dict = {}
        for task in tasks:
            per_cpu[task.name] = per_cpu.get(task.name, 0.0) + nbytes
        names = [g.name for g in gpus]
        if to_tasks:
            items = [(g, c, nb) for g in names for c, nb in per_cpu.items() if g != c]
        else:
            items = [(c, g, nb) for g in names for c, nb in per_cpu.items() if g != c]
        if not items:
            return 0.0
        sim = Simulator(self.machine, route_plans=self._route_plans)
        sim.transfers(items)
        sim.run()
        return sim.now

    def alone(self, nbytes: int) -> float:
        """Parameter server, asynchronous: one worker's push with nobody else on the links."""
        key = ("alone", nbytes)
        if key not in self._cache:
            self._cache[key] = self._copies(self.ranks[:1], self.ps_tasks(), nbytes / self.ps)
        return self._cache[key]
