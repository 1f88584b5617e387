"""``CollectiveAllReduce``: MultiWorkerMirroredStrategy's cross-device ops (TF's cross_device_ops).

One collective over every replica of every worker (group size = local replicas x workers,
collectives.md §5.4): the values are grouped by dtype and packed by
``CommunicationOptions.bytes_per_pack`` (T26), each pack is flattened per local replica and
all-reduced with RING or NCCL (``implementation``; AUTO runs TF's ring, and NCCL only on GPUs,
§9.3). On one worker the local replicas are reduced here by sim.collectives; across workers
the fabric gathers every worker's buffers, reduces them on the cluster's machine and answers
with the sum and the collective's start and length on the cluster's clock. MEAN divides by all
replicas of all workers (§9.2).
"""
from __future__ import annotations

from sim.distribute import _collective, _ops, packing, timing
from sim.distribute.communication_options import CommunicationImplementation, CommunicationOptions
from sim.distribute.cross_device_ops import (CrossDeviceOps, _check_op, batch_all_reduce_arrays,
                                             _mirrored, devices_of)
from sim.distribute.values import DistributedValues, PerReplica

LABEL = "CollectiveAllReduce"


def algorithm_for(options, devices):
    """"nccl" when NCCL is asked and every device is a GPU, else "ring" (TF's runtime, §9.3)."""
    if options.implementation == CommunicationImplementation.NCCL and \
            all("GPU" in d.upper().rsplit("/", 1)[-1] for d in devices):
        return "nccl"
    return "ring"


class CollectiveAllReduce(CrossDeviceOps):
    """All-reduce across the replicas of all workers; ``fabric`` is None on a single worker."""

    def __init__(self, devices, num_replicas_in_sync, options=None, fabric=None):
        self._devices = tuple(devices)
        self._num_replicas_in_sync = num_replicas_in_sync
        self._options = options or CommunicationOptions()
        self._fabric = fabric

    # -- CrossDeviceOps ----------------------------------------------------------------------
    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        return self.batch_reduce_implementation(reduce_op, [(per_replica_value, destinations)],
                                                options)[0]

    def batch_reduce_implementation(self, reduce_op, pairs, options):
        _check_op(reduce_op)
        options = self._options.merge(options)
        values = [self._as_local(v) for v, _ in pairs]
        reduced = batch_all_reduce_arrays(reduce_op, values,
                                          lambda group: self._all_reduce_packs(group, options),
                                          self._num_replicas_in_sync)
        out = []
        for (value, dest), per_device in zip(pairs, reduced):
            template = value._values[0] if isinstance(value, DistributedValues) else value
            dests = devices_of(dest) if dest is not None else self._devices
            if tuple(dests) == self._devices:
                tensors = [_ops.like(a, template) for a in per_device]
            else:
                tensors = [_ops.like(per_device[0], template)] * len(dests)
            out.append(_mirrored(tensors, dests))
        return out

    def _as_local(self, value):
        """A value with one component per local replica (a plain value is every replica's)."""
        if isinstance(value, DistributedValues) and len(value._values) == len(self._devices):
            return value
        if isinstance(value, DistributedValues):
            value = value._values[0]
        return PerReplica((value,) * len(self._devices))

    # -- the collective ----------------------------------------------------------------------
    def _all_reduce_packs(self, tensors, options):
        """One dtype's ``tensors[t][d]``, packed by ``bytes_per_pack`` (T26), each pack one collective."""
        out = []
        for pack in packing.group_by_size([a[0].nbytes for a in tensors], options.bytes_per_pack):
            out += packing.reduce_concatenated([tensors[i] for i in pack],
                                               lambda buffers: self._all_reduce_buffers(buffers, options))
        return out

    def _all_reduce_buffers(self, buffers, options):
        """One flat buffer per local replica -> their sums, on one worker or across the fabric."""
        algorithm = algorithm_for(options, self._devices)
        if self._fabric is not None:
            return self._across_workers(buffers, algorithm)
        summed, seconds = _collective.all_reduce(buffers, algorithm, self._devices)
        timing.communicate(seconds, LABEL, ",".join(self._devices), buffers[0].nbytes)
        return summed

    def _across_workers(self, buffers, algorithm):
        """Send this worker's buffers to the fabric; wait for the sum and the cluster's timing."""
        from sim.des.trace import TraceEvent
        from sim.runtime import clock
        timer = timing.current()
        now = clock().now
        if timer is not None:
            timer.charge_to(timer._target)
            arrive = max(timer.t)
        else:
            arrive = 0.0
        results, start, seconds = self._fabric.all_reduce(buffers, self._devices, now + arrive,
                                                          algorithm)
        local_start = max(start - now, arrive)
        event = TraceEvent("transfer", LABEL, ",".join(self._devices), local_start,
                           local_start + seconds, nbytes=float(buffers[0].nbytes))
        if timer is not None:
            timer.events.append(event)
            timer.t = [local_start + seconds] * len(timer.t)
        else:
            clock().advance(local_start + seconds, LABEL, event.where, events=[event])
        return results
