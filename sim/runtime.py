"""The current simulated machine and the simulated clock every strategy call advances.

``current_machine()`` is the machine strategies place replicas on (the course default preset
``workstation-4gpu`` until ``use_machine`` picks another). ``clock()`` is the simulated clock:
strategies and ``Model.fit`` call ``advance`` with each step's time and events, learners read
``now`` and ``last_step_seconds``, and a timeline draws ``trace``. No wall-clock time anywhere.

The trace is bounded: it keeps the newest ``trace_limit`` events (``TRACE_LIMIT``: 20,000, about 5 MB;
a 4-GPU Mirrored step makes some 26), so a 20,000-step loop does not grow memory without end
(``trace_dropped`` counts what was let go). ``clock().trace_limit = None`` keeps every event,
for a full timeline of a long run. Each strategy's ``extended.last_step_trace`` keeps its own
step whatever the limit.
"""
from __future__ import annotations

from typing import NamedTuple

DEFAULT_MACHINE = "workstation-4gpu"
TRACE_LIMIT = 20_000
_machine = None


class StepRecord(NamedTuple):
    """One ``advance``: what ran, where, from ``start`` to ``end`` (simulated seconds)."""
    what: str
    where: str
    start: float
    end: float


class Clock:
    """Simulated time: ``now``, ``advance(seconds, what, where, events=())``, ``steps``, ``trace``."""

    def __init__(self):
        self.trace_limit = TRACE_LIMIT     # newest events kept; None keeps them all
        self.reset()

    def reset(self):
        """Back to time zero with no steps and an empty trace (``trace_limit`` stays)."""
        self.now = 0.0
        self.last_step_seconds = 0.0
        self.last_step_memory: dict = {}   # device name -> peak bytes of the last strategy step
        self.steps: list = []   # StepRecord per advance
        self.trace: list = []   # trace events (kind, name, where, start, end...), absolute times
        self.trace_dropped = 0  # oldest events let go to stay within trace_limit
        self._last_step_at = 0  # index in trace of the last step's first event

    def advance(self, seconds, what="step", where="", events=()):
        """Move time forward by ``seconds``; ``events`` (times relative to the step start) join
        the trace shifted to absolute time. Returns the new ``now``."""
        seconds = float(seconds)
        if seconds < 0:
            raise ValueError(f"simulated time cannot go backwards (advance by {seconds} s)")
        start = self.now
        self._last_step_at = len(self.trace)
        for e in events:
            if hasattr(e, "_replace"):
                e = e._replace(start=e.start + start, end=e.end + start)
            self.trace.append(e)
        self._bound_trace()
        self.now = start + seconds
        self.last_step_seconds = seconds
        self.steps.append(StepRecord(what, where, start, self.now))
        return self.now

    def _bound_trace(self):
        """Drop the oldest events past ``trace_limit`` (in chunks of a quarter of the limit,
        so appending stays cheap)."""
        limit = self.trace_limit
        if limit is None or len(self.trace) <= limit + limit // 4:
            return
        cut = len(self.trace) - limit
        del self.trace[:cut]
        self.trace_dropped += cut
        self._last_step_at = max(0, self._last_step_at - cut)

    def last_step_trace(self):
        """The trace events of the last step (those starting at or after its start)."""
        if not self.steps:
            return []
        start = self.steps[-1].start
        return [e for e in self.trace[self._last_step_at:] if getattr(e, "start", 0.0) >= start]

    def __repr__(self):
        return f"Clock(now={self.now:.6g} s, steps={len(self.steps)})"


_clock = Clock()


def clock() -> Clock:
    """The simulated clock."""
    return _clock


def current_machine():
    """The simulated machine (default: the preset ``workstation-4gpu``)."""
    global _machine
    if _machine is None:
        _machine = _preset(DEFAULT_MACHINE)
    return _machine


def use_machine(name_or_machine):
    """Make a Machine (or a preset name) the current one; returns it."""
    global _machine
    m = _preset(name_or_machine) if isinstance(name_or_machine, str) else name_or_machine
    _machine = m
    return m


def _preset(name):
    try:
        from sim.hardware import preset
    except ImportError:   # sim.hardware not there: a tiny stand-in machine
        return _Fallback(name)
    return preset(name)


class _FallbackDevice(NamedTuple):
    name: str
    short_name: str
    device_type: str
    host: int
    index: int


class _Fallback:
    """One CPU and four GPUs named as TensorFlow names them, used only without sim.hardware."""

    def __init__(self, name):
        self.name = name
        p = "/job:localhost/replica:0/task:0/device:"
        self.devices = [_FallbackDevice(p + "CPU:0", "/cpu:0", "CPU", 0, 0)] + [
            _FallbackDevice(f"{p}GPU:{i}", f"/gpu:{i}", "GPU", 0, i) for i in range(4)]

    def devices_of(self, device_type="GPU", host=None):
        return [d for d in self.devices if d.device_type == device_type]


# ---- TensorFloat-32 (tf.config.experimental.enable_tensor_float_32_execution) ---------------
# TensorFlow runs float32 matmuls and convolutions in TF32 on Ampere and newer GPUs unless told
# not to; on CPU the numbers are unchanged (TensorFlow's too: measured on TF 2.21, CPU). sim's
# arithmetic is NumPy's float32 either way; the step-time model reads the flag to pick the TF32
# tensor-core peak for float32 work (``tensor_float_32_enabled()``).
_tensor_float_32 = True   # TensorFlow's default (tensorflow/python/framework/config.py)


def tensor_float_32_enabled() -> bool:
    """Whether float32 matmuls/convolutions may run in TF32 on GPUs that have it."""
    return _tensor_float_32


def set_tensor_float_32(enabled) -> None:
    global _tensor_float_32
    _tensor_float_32 = bool(enabled)
