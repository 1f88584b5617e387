"""The configurations a plan compares: which nodes, how many, on which network, which strategy.

A ``Candidate`` is one way to run the job: ``nodes`` copies of a node preset (``machine``) with
``gpus`` GPUs used on each, joined by ``network``, a ``strategy`` (below) and a per-device batch.
The strategy names say what TensorFlow calls it and, for all-reduce, which implementation:

- ``mirrored-nccl``, ``mirrored-ring``: MirroredStrategy on one node, MultiWorkerMirroredStrategy
  on several (``CommunicationImplementation.NCCL`` / ``RING``);
- ``mirrored-hierarchical``: MirroredStrategy's ``HierarchicalCopyAllReduce``, one node only;
- ``central-storage``: CentralStorageStrategy (variables on the CPU), one node only;
- ``ps-async``: TF2's ParameterServerStrategy with ``ps`` tasks, every GPU a worker, each update
  applied as it comes: TF2's parameter servers train asynchronously only
  (parameter_server_strategy_v2.py: "There is no synchronization beyond a worker");
- ``ps-sync``: HISTORY, not a TF2 strategy: TF1's ``tf.train.SyncReplicasOptimizer`` (or
  tf_cnn_benchmarks' ``--variable_update=parameter_server``): variables on parameter servers,
  the first N of N + ``backups`` gradients averaged each step, the rest dropped (backup workers,
  Chen et al. 2016).

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
    backups: int = 0          # ps-sync: devices whose gradients are dropped each step

    @property
    def workers(self) -> int:
        """Gradients behind one update (sync) or workers updating (async)."""
        return self.devices - self.backups

    @property
    def devices(self) -> int:
        return self.nodes * self.gpus

    @property
    def synchronous(self) -> bool:
        return STRATEGIES[self.strategy][1]

    @property
    def update_batch(self) -> int:
        """Examples behind one update: the global batch, or one worker's batch when async."""
        return self.workers * self.batch_per_device if self.synchronous else self.batch_per_device

    @property
    def tf_name(self) -> str:
        """What the learner writes in TensorFlow for this strategy."""
        if self.strategy.startswith("mirrored"):
            return "MirroredStrategy" if self.nodes == 1 else "MultiWorkerMirroredStrategy"
        if self.strategy == "central-storage":
            return "CentralStorageStrategy"
        if self.strategy == "ps-sync":
            return "SyncReplicasOptimizer (TF1)"
        return "ParameterServerStrategy"

    def short_how(self) -> str:
        """The strategy in a table cell: ``MWMS nccl``, ``PS ps=32``, ``TF1 sync ps=4 +2``."""
        if self.strategy.startswith("mirrored"):
            return ("Mirrored " if self.nodes == 1 else "MWMS ") + self.strategy.split("-", 1)[1]
        if self.strategy == "central-storage":
            return "CentralStorage"
        if self.strategy == "ps-async":
            return f"PS ps={self.ps}"
        return f"TF1 sync ps={self.ps}" + (f" +{self.backups}" if self.backups else "")

    def label(self) -> str:
        """One short line in the course language: ``2 × dgx1-p100 (16 GPUs), edr-ib, MWMS nccl,
        64 per GPU``."""
        net = t("plan.label_net", network=self.network) if self.network and self.nodes > 1 else ""
        return t("plan.label", nodes=self.nodes, machine=self.machine, devices=self.devices, net=net,
                 how=self.short_how(), batch=self.batch_per_device)


def check_strategy(name: str) -> str:
    if name not in STRATEGIES:
        from sim.i18n import join_list
        raise ValueError(t("plan.unknown_strategy", name=name, known=join_list(list(STRATEGIES))))
    return name


def _whole(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(t("plan.bad_count", what=what, value=value))
    return value


def grid(machines=("dgx1-p100",), nodes=(1, 2, 4), networks=(None,), gpus=(None,),
         strategies=("mirrored-nccl",), batch_per_device=(64,), ps=(None,),
         backups=(0,)) -> list[Candidate]:
    """Every combination; ``gpus=None``: all of a node's GPUs; ``ps=None``: one task per node;
    ``backups``: backup workers of ``ps-sync`` candidates (others take 0);
    ``networks=(None,)``: the node's own (``DEFAULT_NETWORK``). A single-node candidate is listed
    once whatever the networks (it uses none)."""
    from sim.hardware import NodeSpec, preset
    from sim.hardware.node_clusters import DEFAULT_NETWORK
    out, seen = [], set()
    for machine, n, net, g, s, b, p, k in itertools.product(machines, nodes, networks, gpus, strategies,
                                                             batch_per_device, ps, backups):
        check_strategy(s)
        if s in ONE_NODE_ONLY and n > 1:
            continue
        per_node = machine.count if isinstance(machine, NodeSpec) else len(preset(machine).gpus)
        g = per_node if g is None else _whole(g, "gpus")
        if g > per_node:
            raise ValueError(t("plan.too_many_gpus", gpus=g, machine=machine, most=per_node))
        p = (_whole(n, "nodes") if p is None else _whole(p, "ps")) if s.startswith("ps") else 1
        net = None if n == 1 else (net or _own_network(machine, DEFAULT_NETWORK))
        k = k if s == "ps-sync" else 0
        if isinstance(k, bool) or not isinstance(k, int) or k < 0 or k >= _whole(n, "nodes") * g:
            raise ValueError(t("plan.bad_backups", value=k, devices=n * g))
        c = Candidate(machine, _whole(n, "nodes"), net, g, s, _whole(b, "batch"), p, k)
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def _own_network(machine, defaults: dict):
    """The network a node ships with: a preset's, or a machine file's ``[network]`` (by name)."""
    if isinstance(machine, str):
        return defaults.get(machine)
    return machine.network.name if machine.network is not None else "hdr-ib"
