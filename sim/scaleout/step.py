"""One simulated data-parallel training step of a model described layer by layer.

Every device computes the forward pass, then the backward pass layer by layer (last layer first).
A bucket of gradients (``sim.scaleout.buckets``) is ready when its last layer's backward ends and
is synchronised on one communication stream, in order (NCCL launches are serialised, collectives.md
§5.4): bucket k starts at max(its ready time, the end of bucket k-1) and takes the time
``sim.scaleout.comm`` measures on the simulator. With ``overlap=False`` every bucket waits for the
end of backward. The step ends when both backward and the last bucket are done, so

    overlap off:  step = compute + sum(bucket times)
    overlap on:   max(compute, sum(bucket times)) <= step <= compute + sum(bucket times).

Stated simplifications: compute runs at ``peak x achieved fraction`` (``sim.workloads.throughput``)
and is not slowed by communication; the optimizer update and the input pipeline are left out.
Asynchronous parameter servers: a worker runs its own step with nobody else on the links, unless
the servers' links cannot carry every worker's traffic in that time (then the step is that
traffic's time); its updates are ``workers - 1`` steps stale on average.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sim.des.trace import TraceEvent
from sim.workloads import workload as workload_of
from sim.workloads.throughput import achieved
from .buckets import buckets as make_buckets
from .comm import Communicator

MB = 2**20


@dataclass
class Step:
    """What one step did: times in seconds; ``buckets`` as (bytes, ready, start, end)."""

    model: str
    devices: int
    batch_per_device: int
    forward: float
    backward: float
    buckets: list
    step_time: float
    staleness: float = 0.0
    events: list = field(default_factory=list)

    @property
    def compute(self) -> float:
        return self.forward + self.backward

    @property
    def communication(self) -> float:
        return sum(end - start for _, _, start, end in self.buckets)

    @property
    def samples_per_s(self) -> float:
        return self.devices * self.batch_per_device / self.step_time


def device_rate(model, device) -> float:
    """FLOP/s ``device`` achieves on ``model`` (peak of the family's dtype x achieved fraction)."""
    got = achieved(model.family, device)
    return device.peak_flops[got["dtype"]] * got["fraction"]


def simulate_step(model, machine, ranks, strategy: str = "nccl", batch_per_device: int = 64,
                  bucket_mb: float = 64, overlap: bool = True, ps: int = 1, sync: bool = True,
                  communicator: Communicator | None = None) -> Step:
    """Simulate one step of ``model`` (name or Workload) on the GPUs ``ranks`` of ``machine``."""
    model = workload_of(model) if isinstance(model, str) else model
    comm = communicator or Communicator(machine, ranks, strategy, ps)
    rate = device_rate(model, comm.ranks[0]) / batch_per_device
    forward = model.forward_flops / rate
    t, done = forward, []
    for layer in model.backward_order():
        t += layer.backward_flops / rate
        done.append(t)
    backward_end = t
    where = comm.ranks[0].short_name
    events = [TraceEvent("compute", "forward", where, 0.0, forward)]
    rows, free, begin = [], 0.0, forward
    for k, b in enumerate(make_buckets(model, bucket_mb * MB)):
        ready = done[b.last] if overlap else backward_end
        events.append(TraceEvent("compute", f"backward {k}", where, begin, done[b.last]))
        begin = done[b.last]
        seconds = comm.seconds(b.nbytes) if sync or strategy_is_allreduce(comm) else comm.alone(b.nbytes)
        start = max(ready, free)
        free = start + seconds
        rows.append((b.nbytes, ready, start, free))
        events.append(TraceEvent("transfer", f"bucket {k}", comm.strategy, start, free, nbytes=b.nbytes))
    if begin < backward_end:
        events.append(TraceEvent("compute", "backward", where, begin, backward_end))
    step = max(backward_end, free)
    staleness = 0.0
    if not sync and not strategy_is_allreduce(comm):
        step = max(step, sum(comm.seconds(b) for b, *_ in rows))
        staleness = len(comm.ranks) - 1.0
    return Step(model.name, len(comm.ranks), batch_per_device, forward, backward_end - forward,
                rows, step, staleness, sorted(events, key=lambda e: e.start))


def strategy_is_allreduce(comm: Communicator) -> bool:
    return comm.strategy != "parameter-server"
