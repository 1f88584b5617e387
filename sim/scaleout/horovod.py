"""Horovod's background loop in one step: cycles, negotiation, tensor fusion, one stream.

From ``horovod/horovod`` (read at its master):

* ``horovod/common/operations.cc`` ``RunLoopOnce``: the background thread sleeps until the last
  cycle's start plus ``HOROVOD_CYCLE_TIME``, then asks the controller which tensors every rank has
  ready. A gradient that exists just after a cycle began waits for the next one.
* ``horovod/common/controller.cc`` ``ComputeResponseList`` / ``CoordinateCacheAndState``: with the
  response cache (on by default since Horovod 0.17, commit 15a0bd8a, April 2019, "Enable faster
  worker coordination via response caching") the ranks agree by an all-reduce of a small bit
  vector (``CacheCoordinator::sync``): ``ceil(lg p)`` messages of the slowest route's latency α
  (recursive doubling). Without it (``negotiation="gather"``, every Horovod of 2017-2018 and a
  cache miss today) each rank sends its ready list to rank 0 (``mpi/mpi_controller.cc``
  ``SendReadyTensors`` / ``RecvReadyTensors``: ``MPI_Gather`` + ``MPI_Gatherv`` to
  ``RANK_ZERO``) and rank 0 broadcasts the responses: rank 0 takes ``p - 1`` messages, LogGP's
  gap apart (``sim.collectives.endpoint``), then a binomial broadcast:
  ``α + (p - 1)·g + ceil(lg p)·α``.
* ``controller.cc`` ``FuseResponses``: ready tensors are fused, in order, while
  ``tensor_size + new_tensor_size <= TensorFusionThresholdBytes()`` (a single larger tensor goes
  alone).
* ``horovod/common/ops/collective_operations.cc`` ``AllreduceOp::MemcpyInFusionBuffer`` /
  ``MemcpyOutFusionBuffer``: a fused response is copied into the fusion buffer and back out:
  ``2 x bytes`` read and written on the GPU, ``4 x bytes / memory bandwidth`` (one tensor alone
  is reduced in place).
* The fused all-reduces run one after another on one stream (NCCL's, collectives.md §5.4).

``schedule(ready, sizes, ...)`` returns rows ``(bytes, ready, start, end)`` like the other
policies, and the negotiation intervals for the timeline.
"""
from __future__ import annotations

import math


def negotiation_seconds(machine, ranks, negotiation: str = "cache") -> float:
    """One cycle's agreement among ``ranks`` (module docstring): ``cache`` or ``gather``."""
    p = len(ranks)
    if p < 2:
        return 0.0
    first = ranks[0]
    alpha = max(machine.route_latency(first, r) for r in _far_ranks(ranks))
    steps = math.ceil(math.log2(p))
    if negotiation == "cache":
        return steps * alpha
    net = getattr(machine, "network", None)
    hosts = len({r.host for r in ranks})
    gap = net.gap if net is not None and hosts > 1 else 0.0
    return alpha + (p - 1) * gap + steps * alpha


def _far_ranks(ranks):
    """One rank per host other than rank 0's (latency is the same for every rank of a host),
    plus rank 0's neighbours on its own host."""
    seen, out = set(), []
    for r in ranks[1:]:
        if r.host not in seen:
            seen.add(r.host)
            out.append(r)
    return out


def fuse(sizes: list, threshold: float) -> list:
    """Groups of consecutive indices, each up to ``threshold`` bytes (FuseResponses)."""
    groups, size = [], 0.0
    for i, b in enumerate(sizes):
        if groups and size + b <= threshold:
            groups[-1].append(i)
            size += b
        else:
            groups.append([i])
            size = b
    return groups


def schedule(ready: list, sizes: list, seconds, cycle: float, negotiate: float,
             threshold: float, memory_bandwidth: float):
    """Rows ``(bytes, ready, start, end)`` and negotiation intervals ``(start, end)``.

    ``ready[i]``/``sizes[i]``: when gradient ``i`` (backward order) exists and its bytes;
    ``seconds(nbytes)``: one all-reduce of that many bytes."""
    rows, talks = [], []
    n, i, tick, free = len(ready), 0, 0.0, 0.0
    while i < n:
        if ready[i] > tick:                    # idle cycles until gradient i exists
            tick = math.ceil(ready[i] / cycle) * cycle if cycle > 0 else ready[i]
        j = i
        while j < n and ready[j] <= tick:
            j += 1
        decided = tick + negotiate
        talks.append((tick, decided))
        for group in fuse(sizes[i:j], threshold):
            nbytes = sum(sizes[i + k] for k in group)
            copy = 4.0 * nbytes / memory_bandwidth if len(group) > 1 else 0.0
            start = max(decided, free)
            free = start + copy + seconds(nbytes)
            rows.append((nbytes, max(ready[i + k] for k in group), start, free))
        i = j
        tick = max(tick + cycle, decided)
    return rows, talks
