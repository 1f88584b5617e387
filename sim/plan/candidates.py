"""The configurations a plan compares: which nodes, how many, on which network, which strategy.

A ``Candidate`` is one way to run the job: ``nodes`` copies of a node preset (``machine``) with
``gpus`` GPUs used on each, joined by ``network``, a ``strategy`` (below) and a per-device batch.
The strategy names say what TensorFlow calls it and, for all-reduce, which implementation:

- ``mirrored-nccl``, ``mirrored-ring``: MirroredStrategy on one node, MultiWorkerMirroredStrategy
  on several (``CommunicationImplementation.NCCL`` / ``RING``);
- ``mirrored-hierarchical``: MirroredStrategy's ``HierarchicalCopyAllReduce``, one node only;
- ``central-storage``: CentralStorageStrategy (variables on the CPU), one node only;
- ``ps-sync``, ``ps-async``: ParameterServerStrategy with ``ps`` tasks, every GPU a worker, its
  updates averaged each step (sync) or applied as they come (async, TensorFlow's default).

``grid(...)`` is every combination of the lists it is given, in a fixed order.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from sim.i18n import t

# plan strategy -> (sim.scaleout strategy, synchronous?)
STRATEGIES = {"mirrored-nccl": ("nccl", True), "mirrored-ring": ("ring", True),
              "mirrored-hierarchical": ("hierarchical", True),
              "central-storage": ("central-storage", True),
              "ps-sync": ("parameter-server", True), "ps-async": ("parameter-server", False)}


# TensorFlow offers these on one machine only (MultiWorkerMirroredStrategy has no hierarchical
# copy; CentralStorageStrategy is single-machine): grid() leaves out their multi-node combinations.
ONE_NODE_ONLY = ("mirrored-hierarchical", "central-storage")


@dataclass(frozen=True)
class Candidate:
    machine: str
    nodes: int
    network: str | None
    gpus: int                 # GPUs used on each node
    strategy: str
    batch_per_device: int
    ps: int = 1               # parameter-server tasks (ps-* strategies only)

    @property
    def devices(self) -> int:
        return self.nodes * self.gpus

    @property
    def synchronous(self) -> bool:
        return STRATEGIES[self.strategy][1]

    @property
    def update_batch(self) -> int:
        """Examples behind one update: the global batch, or one worker's batch when async."""
        return self.devices * self.batch_per_device if self.synchronous else self.batch_per_device

    @property
    def tf_name(self) -> str:
        """What the learner writes in TensorFlow for this strategy."""
        if self.strategy.startswith("mirrored"):
            return "MirroredStrategy" if self.nodes == 1 else "MultiWorkerMirroredStrategy"
        if self.strategy == "central-storage":
            return "CentralStorageStrategy"
        return "ParameterServerStrategy"

    def label(self) -> str:
        """One short line: ``2 x dgx1-p100 (8 GPUs), edr-ib, mirrored-nccl, 64/device``."""
        net = f", {self.network}" if self.network and self.nodes > 1 else ""
        ps = f" ps={self.ps}" if self.strategy.startswith("ps") else ""
        return (f"{self.nodes} x {self.machine} ({self.devices} GPUs){net}, {self.strategy}{ps}, "
                f"{self.batch_per_device}/device")


def check_strategy(name: str) -> str:
    if name not in STRATEGIES:
        raise ValueError(t("plan.unknown_strategy", name=name, known=", ".join(STRATEGIES)))
    return name


def _whole(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(t("plan.bad_count", what=what, value=value))
    return value


def grid(machines=("dgx1-p100",), nodes=(1, 2, 4), networks=(None,), gpus=(None,),
         strategies=("mirrored-nccl",), batch_per_device=(64,), ps=(None,)) -> list[Candidate]:
    """Every combination; ``gpus=None``: all of a node's GPUs; ``ps=None``: one task per node;
    ``networks=(None,)``: the node's own (``DEFAULT_NETWORK``). A single-node candidate is listed
    once whatever the networks (it uses none)."""
    from sim.hardware import NodeSpec, preset
    from sim.hardware.node_clusters import DEFAULT_NETWORK
    out, seen = [], set()
    for machine, n, net, g, s, b, p in itertools.product(machines, nodes, networks, gpus, strategies,
                                                          batch_per_device, ps):
        check_strategy(s)
        if s in ONE_NODE_ONLY and n > 1:
            continue
        per_node = machine.count if isinstance(machine, NodeSpec) else len(preset(machine).gpus)
        g = per_node if g is None else _whole(g, "gpus")
        if g > per_node:
            raise ValueError(t("plan.too_many_gpus", gpus=g, machine=machine, most=per_node))
        p = (_whole(n, "nodes") if p is None else _whole(p, "ps")) if s.startswith("ps") else 1
        net = None if n == 1 else (net or _own_network(machine, DEFAULT_NETWORK))
        c = Candidate(machine, _whole(n, "nodes"), net, g, s, _whole(b, "batch"), p)
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def _own_network(machine, defaults: dict):
    """The network a node ships with: a preset's, or a machine file's ``[network]`` (by name)."""
    if isinstance(machine, str):
        return defaults.get(machine)
    return machine.network.name if machine.network is not None else "hdr-ib"
