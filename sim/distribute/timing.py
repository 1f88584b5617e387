"""Simulated time of one step: per-replica compute, then collectives, on the simulated clock.

Each replica's FLOPs and bytes (counted by ``sim.engine.counting``) become time on its device
with the roofline rule ``max(flops / peak_flops, bytes / memory_bandwidth)`` (Williams et al.,
"Roofline", CACM 2009), plus a fixed launch overhead per op (``LAUNCH_OVERHEAD``): without it a
tiny model's step would take a fraction of a nanosecond, while a real eager step pays the host
dispatch of every op. A TPU runs the step as a few XLA programs, so it pays the overhead once per
step instead (``PER_STEP_OVERHEAD_TYPES``). A collective is a barrier: it starts when the slowest replica arrives
and every replica leaves when it ends. The step takes the time of the slowest replica; the
clock advances by it and the step's events form a trace a timeline can draw.

Read it as ``strategy.extended.last_step_time`` (seconds),
``strategy.extended.last_step_trace`` (TraceEvent list, times relative to the step start) and
``strategy.extended.last_step_memory`` (peak bytes per device, memory.py),
or on the clock: ``sim.runtime.clock()`` (``now``, ``last_step_seconds``, ``trace``); the
events are ``sim.des.trace.TraceEvent`` rows, like a simulator's.
"""
from __future__ import annotations

from sim.des.trace import TraceEvent
from sim.distribute.memory import StepMemory
from sim.runtime import clock

__all__ = ["StepTimer", "TraceEvent", "clock", "communicate", "compute_seconds", "current"]

_active: list = []   # StepTimers of running steps, innermost last

# Host/launch overhead of one op, by device type (s). A TF op dispatch or a cudaMemcpy call costs
# several µs of host overhead (shared/reference/collectives.md §4, rule of thumb), and NVIDIA
# gives a CUDA kernel launch latency of a few µs (CUDA C++ Best Practices Guide); a CPU op skips
# the launch but not the eager dispatch. Rounded course figures, not measurements.
GPU_OP_OVERHEAD = 4e-6
CPU_OP_OVERHEAD = 1e-6
# A TPU step is compiled by XLA into a few programs: one launch per step, not one per op.
TPU_STEP_OVERHEAD = 4e-6
LAUNCH_OVERHEAD = {"GPU": GPU_OP_OVERHEAD, "CPU": CPU_OP_OVERHEAD, "TPU": TPU_STEP_OVERHEAD}
PER_STEP_OVERHEAD_TYPES = frozenset({"TPU"})


def _advance(seconds, what, where, events):
    clock().advance(seconds, what, where, events=events)


def compute_seconds(device, flops, nbytes, dtype="float32", ops=0):
    """Roofline time of ``flops`` and ``nbytes`` on ``device`` (a sim.hardware Device), plus
    ``ops`` launches (none on a TPU, which pays once per step: see ``StepTimer``)."""
    peak = device.peak_flops.get(dtype) or device.peak_flops.get("float32") or max(device.peak_flops.values())
    return max(flops / peak, nbytes / device.memory_bandwidth) + ops * op_overhead(device)


def op_overhead(device):
    """The launch overhead one op costs on ``device`` (0 where it is paid per step)."""
    kind = device.device_type
    return 0.0 if kind in PER_STEP_OVERHEAD_TYPES else LAUNCH_OVERHEAD.get(kind, CPU_OP_OVERHEAD)


class StepTimer:
    """Accounts one ``strategy.run``: compute per replica, collectives as barriers."""

    def __init__(self, extended, devices, counter=None, parameter_device=None):
        from sim.distribute._machine import device
        self._extended = extended
        self._devices = [device(d) for d in devices]
        self._replicas = len(self._devices)
        self.update_lane = 0          # where a single-copy update runs (the parameter device)
        self.reads = None             # replica -> {id(var): bytes} read from the parameter device
        self._parameter_device = None
        if parameter_device is not None:
            param = device(parameter_device)
            self._parameter_device = param.name
            if param not in self._devices:
                self._devices.append(param)
            self.update_lane = self._devices.index(param)
            self.reads = {}
        self.t = [0.0] * len(self._devices)
        self.events: list = []
        self._counter = counter
        self._target = 0
        self._mark = (0, 0, 0)
        self._launched = set()        # lanes that paid their per-step launch (TPU)
        self.memory = StepMemory(self._devices)     # its ``lane`` follows ``_target``

    def __enter__(self):
        _active.append(self)
        self.memory.__enter__()
        return self

    def __exit__(self, *exc):
        _active.remove(self)
        self.memory.__exit__(*exc)
        if exc[0] is None:
            self.finish()
        return False

    def charge_to(self, replica):
        """Charge the work counted since the last call to the current target; switch target."""
        c = self._counter
        if c is not None:
            flops, nbytes, ops = c.flops - self._mark[0], c.bytes - self._mark[1], c.ops - self._mark[2]
            if flops or nbytes or ops:
                self.compute(self._target, flops, nbytes,
                             "update" if self._target >= self._replicas else "compute", ops)
            self._mark = (c.flops, c.bytes, c.ops)
        self._target = self.memory.lane = replica if replica is not None else 0

    def compute(self, replica, flops, nbytes, label="compute", ops=0):
        """``ops`` ops doing ``flops`` and ``nbytes`` run next on ``replica``'s lane."""
        dev = self._devices[replica]
        seconds = compute_seconds(dev, flops, nbytes, ops=ops)
        if dev.device_type in PER_STEP_OVERHEAD_TYPES and replica not in self._launched:
            self._launched.add(replica)
            seconds += LAUNCH_OVERHEAD[dev.device_type]
        start = self.t[replica]
        self.t[replica] = start + seconds
        last = self.events[-1] if self.events else None
        if last is not None and last.kind == "compute" and last.where == dev.name \
                and last.end == start and last.name == label:
            self.events[-1] = self.events[-1]._replace(end=start + seconds)
        else:
            self.events.append(TraceEvent("compute", label, dev.name, start, start + seconds))

    def communicate(self, seconds, label, where, nbytes=0.0, events=None):
        """A collective over all replicas: a barrier, then ``seconds`` on the links.

        ``events``: the collective's own transfer events (times from its start), shown instead
        of one summary event so a timeline names every link that carried bytes.
        """
        self.charge_to(self._target)
        start = max(self.t)
        if events:
            self.events.extend(_shifted(events, start))
        else:
            self.events.append(TraceEvent("transfer", label, where, start, start + seconds,
                                          nbytes=float(nbytes)))
        self.t = [start + seconds] * len(self.t)

    def note_read(self, var):
        """A replica read ``var`` (one copy on the parameter device): it is copied this step."""
        from sim.distribute.context import current_mode
        ctx = current_mode().replica_context
        if ctx is None or var._distribute_strategy.extended is not self._extended:
            return
        per = self.reads.get(ctx._local_replica_id)
        if per is None:
            per = self.reads[ctx._local_replica_id] = {}
        if id(var) not in per:
            per[id(var)] = var._values[0]._value.nbytes

    def _prepend_reads(self):
        """Every replica copies the variables it read from the parameter device, all at once,
        before its compute: the phase shifts the rest of the step."""
        from sim.distribute import _copies
        items = [(self._parameter_device, self._devices[r].name, sum(per.values()))
                 for r, per in sorted(self.reads.items())]
        seconds, events = _copies.concurrent(items, "read_variables")
        if seconds:
            self.events = list(events) + _shifted(self.events, seconds)
            self.t = [x + seconds for x in self.t]

    def finish(self):
        self.charge_to(self._target)
        self._extended.last_step_memory = clock().last_step_memory = self.memory.peaks()
        self.memory.check()
        if self.reads:
            self._prepend_reads()
        seconds = max(self.t) if self.t else 0.0
        self._extended.last_step_time = seconds
        self._extended.last_step_trace = tuple(self.events)
        _advance(seconds, "step", ",".join(d.name for d in self._devices), self.events)


def _shifted(events, dt):
    return [e._replace(start=e.start + dt, end=e.end + dt) for e in events]


def communicate(seconds, label, where, nbytes=0.0, events=None):
    """Record a collective: in the running step if any, else directly on the clock."""
    if _active:
        _active[-1].communicate(seconds, label, where, nbytes, events)
    elif seconds:
        _advance(seconds, label, where, list(events) if events else
                 [TraceEvent("transfer", label, where, 0.0, seconds, nbytes=float(nbytes))])


def current():
    return _active[-1] if _active else None
