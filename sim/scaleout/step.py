"""One simulated data-parallel training step of a model described layer by layer.

Every device computes the forward pass, then the backward pass layer by layer (last layer first).
When the gradients are reduced follows the strategy's framework (``sim.scaleout.reduction``):
after the whole backward pass (TensorFlow's Keras path: one pack), pack by pack as each is ready
(graph executors: tf_cnn_benchmarks, ``bytes_per_pack``), or on Horovod's cycles with its fusion
buffer (``sim.scaleout.horovod``). Packs go one after another on one communication stream
(collectives.md §5.4) and take the time ``sim.scaleout.comm`` measures on the simulator, so

    after backward:  step = compute + sum(pack times)
    overlapped:      max(compute, sum(pack times)) <= step <= compute + sum(pack times).

Compute: each layer's forward and backward take their roofline time (``sim.workloads.roofline``:
FLOPs at the precision's peak x a measured kernel fraction, or bytes at memory bandwidth; batch
norm, activations and the like memory-bound), slowed by the SMs an overlapping NCCL collective
takes (``sim.scaleout.contention``, ``contention=False`` turns it off). The optimizer's update
(memory-bound) runs on every GPU once all gradients are reduced; with variables on the CPU it is
the CPU's sum and is left in the communication. The input pipeline is left out.
Asynchronous parameter servers: a worker runs its own step with nobody else on the links, unless
the servers' links cannot carry every worker's traffic in that time (then the step is that
traffic's time); its updates are ``workers - 1`` steps stale on average.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sim.des.trace import TraceEvent
from sim.workloads import workload as workload_of
from sim.workloads.roofline import DEFAULT_PRECISION, compute_times
from . import horovod, reduction
from .buckets import buckets as make_buckets
from .comm import Communicator
from .contention import slowdown, stretch
from .cpu_variables import forward_with_reads, uses_cpu_variables
from .mechanisms import mechanisms_of

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
    reduction: reduction.Reduction | None = None
    mechanisms: tuple = ()
    compute_alone: float = 0.0      # forward + backward with nothing to wait for (one device)
    slowed: float = 0.0             # seconds backward lost to collectives' SMs (contention)
    update: float = 0.0             # the optimizer's update on each GPU, after the reduction
    precision: str = DEFAULT_PRECISION

    @property
    def compute(self) -> float:
        """Forward, backward and the optimizer's update, with nothing to wait for."""
        return self.forward + self.backward + self.update

    @property
    def communication(self) -> float:
        return sum(end - start for _, _, start, end in self.buckets)

    @property
    def samples_per_s(self) -> float:
        return self.devices * self.batch_per_device / self.step_time


def device_rate(model, device, precision: str = DEFAULT_PRECISION, batch: int = 64) -> float:
    """FLOP/s ``device`` achieves on ``model``'s forward and backward (the roofline's)."""
    times = compute_times(model, device, precision, batch)
    return batch * model.flops / (sum(times.forward) + sum(times.backward))


def simulate_step(model, machine, ranks, strategy: str = "nccl", batch_per_device: int = 64,
                  bucket_mb: float | None = None, overlap: bool | None = None, ps: int = 1,
                  sync: bool = True, communicator: Communicator | None = None,
                  cycle_ms: float | None = None, when: str | None = None,
                  negotiation: str | None = None, contention: bool = True,
                  precision: str = DEFAULT_PRECISION, stragglers=None) -> Step:
    """Simulate one step of ``model`` (name or Workload) on the GPUs ``ranks`` of ``machine``.

    ``bucket_mb``, ``overlap``, ``cycle_ms``, ``when`` and ``negotiation`` default to the strategy's framework
    (``sim.scaleout.reduction.resolve``). ``stragglers``: a ``sim.des.ComputeTime`` of mean about 1
    that each GPU's compute is drawn from at every step (None: identical GPUs); a synchronous step
    then computes as long as the slowest of them (``straggling``)."""
    model = workload_of(model) if isinstance(model, str) else model
    comm = communicator or Communicator(machine, ranks, strategy, ps)
    policy = reduction.resolve(comm.strategy, bucket_mb, overlap, cycle_ms, when, negotiation)
    asynchronous = not sync and not strategy_is_allreduce(comm)
    slowest, mean = straggling(stragglers, len(comm.ranks), asynchronous)
    times = stretched(compute_times(model, comm.ranks[0], precision, batch_per_device), slowest)
    where = comm.ranks[0].short_name
    if uses_cpu_variables(comm):
        forward, forward_alone, events = forward_with_reads(model, comm, times.forward,
                                                            alone=asynchronous)
    else:
        forward = forward_alone = sum(times.forward)
        events = [TraceEvent("compute", "forward", where, 0.0, forward)]
    t, done = forward, []
    for seconds_b in reversed(times.backward):
        t += seconds_b
        done.append(t)
    backward_end = t
    seconds = comm.alone if asynchronous else comm.seconds
    if policy.when == reduction.HOROVOD:
        rows, talks = _horovod_rows(model, comm, policy, done, seconds)
        events += [TraceEvent("compute", "negotiate", "horovod", a, b) for a, b in talks if b > a]
        events.append(TraceEvent("compute", "backward", where, forward, backward_end))
    else:
        rows, begin = [], forward
        free = 0.0
        for k, b in enumerate(make_buckets(model, policy.bucket_bytes(model))):
            ready = done[b.last] if policy.overlaps else backward_end
            events.append(TraceEvent("compute", f"backward {k}", where, begin, done[b.last]))
            begin = done[b.last]
            start = max(ready, free)
            free = start + seconds(b.nbytes)
            rows.append((b.nbytes, ready, start, free))
        if begin < backward_end:
            events.append(TraceEvent("compute", "backward", where, begin, backward_end))
    slowed_end = backward_end
    if contention and policy.overlaps:
        bound = times.memory_bound / max(sum(times.forward) + sum(times.backward), 1e-30)
        shares = [slowdown(comm, b, end - start, bound) for b, _, start, end in rows]
        slowed_end = stretch(forward, backward_end, rows, shares)
        if slowed_end > backward_end:
            events.append(TraceEvent("compute", "slowed by NCCL", where, backward_end, slowed_end))
    for k, (nbytes, _, start, end) in enumerate(rows):
        events.append(TraceEvent("transfer", f"bucket {k}", comm.strategy, start, end, nbytes=nbytes))
    step = max([slowed_end] + [end for *_, end in rows])
    update = 0.0 if uses_cpu_variables(comm) else times.update
    if update:
        events.append(TraceEvent("compute", "update", where, step, step + update))
        step += update
    staleness = 0.0
    if asynchronous:
        step = max(step, sum(comm.seconds(b) for b, *_ in rows))
        staleness = len(comm.ranks) - 1.0
    out = Step(model.name, len(comm.ranks), batch_per_device, forward, backward_end - forward,
               rows, step, staleness, sorted(events, key=lambda e: e.start), policy)
    out.compute_alone = (forward_alone + (backward_end - forward) + update) * mean / slowest
    out.straggling = slowest / mean
    out.update = update
    out.precision = precision
    out.slowed = slowed_end - backward_end
    out.mechanisms = mechanisms_of(out, comm)
    return out


def straggling(stragglers, workers: int, asynchronous: bool) -> tuple:
    """(the step's compute, one GPU's mean compute), in computes: E[max of ``workers`` draws] and
    E[X] (``sim.des.order_statistics``); an asynchronous worker waits for nobody, so E[X] for both."""
    if stragglers is None:
        return 1.0, 1.0
    from sim.des.order_statistics import async_factor, sync_factor
    mean = async_factor(stragglers)
    return (mean if asynchronous or workers == 1 else sync_factor(stragglers, workers)), mean


def stretched(times, factor: float):
    """``times`` (``ComputeTimes``) with every layer's and the update's seconds times ``factor``."""
    if factor == 1.0:
        return times
    from dataclasses import replace
    return replace(times, forward=tuple(x * factor for x in times.forward),
                   backward=tuple(x * factor for x in times.backward), update=times.update * factor,
                   memory_bound=times.memory_bound * factor)


def _horovod_rows(model, comm, policy, done, seconds):
    """Horovod's cycles over the per-layer gradients (``sim.scaleout.horovod``)."""
    layers = model.backward_order()
    ready = [done[i] for i, layer in enumerate(layers) if layer.gradient_bytes]
    sizes = [layer.gradient_bytes for layer in layers if layer.gradient_bytes]
    negotiate = horovod.negotiation_seconds(comm.machine, comm.ranks, policy.negotiation)
    return horovod.schedule(ready, sizes, seconds, policy.cycle_ms * 1e-3, negotiate,
                            policy.bucket_bytes(model), comm.ranks[0].memory_bandwidth)


def strategy_is_allreduce(comm: Communicator) -> bool:
    return comm.strategy != "parameter-server"
