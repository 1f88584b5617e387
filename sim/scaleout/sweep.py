"""Scaling curves: one simulated step per cluster size, as rows for tables, plots and the CLI.

``scale("resnet50", "dgx1-p100", nodes=[1, 2, 4], network="25gbe")`` -> rows of
``nodes, devices, step_time_ms, samples_per_s, efficiency`` (plus ``strategy``,
``compute_ms``, ``communication_ms``, ``staleness``), where efficiency is samples/s divided by
devices x one device's samples/s (its compute alone, nothing to synchronise).
"""
from __future__ import annotations

import math

from sim.i18n import t
from sim.workloads import workload as workload_of
from sim.workloads.roofline import DEFAULT_PRECISION, check_precision
from .comm import IN_NUMBERING_ORDER, Communicator
from .ranks import ring_ranks
from .step import simulate_step


def cluster_of(machine, nodes: int, network: str | None = None, fabric=None):
    """The Machine for ``nodes`` copies of the node preset ``machine`` (or of a machine file's
    node, a ``sim.hardware.NodeSpec``) on ``network``, joined by ``fabric`` (a ``LeafSpine``;
    None: one switch, or the machine file's own)."""
    from sim.hardware import NodeSpec, cluster, preset
    if isinstance(machine, NodeSpec):
        if nodes == 1 and network is None:
            return machine.build()
        return cluster(machine, nodes, network, fabric=fabric)
    if not isinstance(machine, str):
        return machine
    if nodes == 1 and network is None:
        return preset(machine)
    return cluster(machine, nodes, network, fabric=fabric)


def scale(model, machine="dgx1-p100", nodes=(1,), network: str | None = None, gpus=None,
          strategy: str = "nccl", ps: int = 1, batch_per_device: int = 64,
          bucket_mb: float | None = None, overlap: bool | None = None, sync: bool = True,
          keep_steps: bool = False, cycle_ms: float | None = None, when: str | None = None,
          negotiation: str | None = None, contention: bool = True,
          precision: str = DEFAULT_PRECISION, stragglers=None, fabric=None) -> list:
    """Rows, one per (nodes, gpus per node): the simulated step and its scaling efficiency.

    ``bucket_mb``/``overlap``/``cycle_ms``/``when`` default to what the strategy's framework does
    (``sim.scaleout.reduction``); each row's ``mechanisms`` says what shaped its step.
    ``stragglers``: each GPU's compute drawn from a ``sim.des.ComputeTime`` at every step (None:
    identical GPUs), so a synchronous step waits for the slowest (``simulate_step``).
    ``fabric``: a ``sim.hardware.LeafSpine`` between the nodes (None: one non-blocking switch)."""
    model = workload_of(model) if isinstance(model, str) else model
    _check(batch_per_device, bucket_mb, ps)
    check_precision(precision)
    rows = []
    for n in nodes:
        m = cluster_of(machine, n, network, fabric)
        devices = m.gpus                       # one list (m.gpus builds a new one each call)
        per_node = sum(1 for d in devices if d.host == devices[0].host)
        for g in (gpus or [per_node]):
            if isinstance(g, bool) or not isinstance(g, int) or not 1 <= g <= per_node:
                raise ValueError(t("scale.bad_gpus", value=g, most=per_node, machine=m.name))
            ranks = ring_ranks(m, nodes=n, gpus=g, numbering=strategy in IN_NUMBERING_ORDER)
            comm = Communicator(m, ranks, strategy, ps)
            step = simulate_step(model, m, ranks, strategy, batch_per_device, bucket_mb, overlap,
                                 ps, sync, communicator=comm, cycle_ms=cycle_ms, when=when,
                                 negotiation=negotiation, contention=contention,
                                 precision=precision, stragglers=stragglers)
            one = batch_per_device / step.compute_alone
            row = {"nodes": n, "devices": len(ranks), "step_time_ms": step.step_time * 1e3,
                   "samples_per_s": step.samples_per_s,
                   "efficiency": step.samples_per_s / (len(ranks) * one),
                   "strategy": strategy, "compute_ms": step.compute_alone * 1e3,
                   "communication_ms": step.communication * 1e3, "staleness": step.staleness,
                   "when": step.reduction.when, "mechanisms": step.mechanisms,
                   "precision": precision}
            if keep_steps:
                row["step"] = step
            rows.append(row)
    return rows


def _check(batch_per_device, bucket_mb, ps) -> None:
    """The numbers a step needs, checked before any simulation (the CLI's checks, for Python)."""
    if isinstance(batch_per_device, bool) or not isinstance(batch_per_device, int) or batch_per_device < 1:
        raise ValueError(t("scale.bad_batch", value=batch_per_device))
    if bucket_mb is not None and (isinstance(bucket_mb, bool) or not isinstance(bucket_mb, (int, float))
                                  or not math.isfinite(bucket_mb) or bucket_mb < 0):
        raise ValueError(t("scale.bad_bucket", value=bucket_mb))
    if isinstance(ps, bool) or not isinstance(ps, int) or ps < 1:
        raise ValueError(t("scale.bad_ps", value=ps))
