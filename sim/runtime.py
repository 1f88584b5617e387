"""The current simulated machine and the simulated clock every strategy call advances.

``current_machine()`` is the machine strategies place replicas on (the course default preset
``workstation-4gpu`` until ``use_machine`` picks another). ``clock()`` is the simulated clock:
strategies and ``Model.fit`` call ``advance`` with each step's time and events, learners read
``now`` and ``last_step_seconds``, and a timeline draws ``trace``. No wall-clock time anywhere.
"""
from __future__ import annotations

from typing import NamedTuple

DEFAULT_MACHINE = "workstation-4gpu"
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
        self.reset()

    def reset(self):
        """Back to time zero with no steps and an empty trace."""
        self.now = 0.0
        self.last_step_seconds = 0.0
        self.last_step_memory: dict = {}   # device name -> peak bytes of the last strategy step
        self.steps: list = []   # StepRecord per advance
        self.trace: list = []   # trace events (kind, name, where, start, end...), absolute times

    def advance(self, seconds, what="step", where="", events=()):
        """Move time forward by ``seconds``; ``events`` (times relative to the step start) join
        the trace shifted to absolute time. Returns the new ``now``."""
        seconds = float(seconds)
        if seconds < 0:
            raise ValueError(f"simulated time cannot go backwards (advance by {seconds} s)")
        start = self.now
        for e in events:
            if hasattr(e, "_replace"):
                e = e._replace(start=e.start + start, end=e.end + start)
            self.trace.append(e)
        self.now = start + seconds
        self.last_step_seconds = seconds
        self.steps.append(StepRecord(what, where, start, self.now))
        return self.now

    def last_step_trace(self):
        """The trace events of the last step (those starting at or after its start)."""
        if not self.steps:
            return []
        start = self.steps[-1].start
        return [e for e in self.trace if getattr(e, "start", 0.0) >= start]

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
