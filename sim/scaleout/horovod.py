"""Horovod's background loop in one step: cycles, negotiation, tensor fusion, one stream.

From ``horovod/horovod`` (read at its master):

* ``horovod/common/operations.cc`` ``RunLoopOnce``: the background thread sleeps until the last
  cycle's start plus ``HOROVOD_CYCLE_TIME``, then asks the controller which tensors every rank has
  ready. A gradient that exists just after a cycle began waits for the next one.
* ``horovod/common/controller.cc`` ``ComputeResponseList`` / ``CoordinateCacheAndState``: with the
  response cache (on by default) the ranks agree by an all-reduce of a small bit vector
  (``CacheCoordinator::sync``). Here that costs a recursive-doubling all-reduce of one message:
  ``ceil(lg p)`` messages of the slowest route's latency (the α of the network between nodes).
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


def negotiation_seconds(machine, ranks) -> float:
    """One cycle's agreement: ``ceil(lg p)`` messages, each the slowest route's latency from rank 0."""
    p = len(ranks)
    if p < 2:
        return 0.0
    first = ranks[0]
    alpha = max(machine.route_latency(first, r) for r in _far_ranks(ranks))
    return math.ceil(math.log2(p)) * alpha


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
