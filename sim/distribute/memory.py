"""Simulated device memory: the bytes one step holds on each device, and TensorFlow's OOM.

A step holds, on each device (its lane in the step's timer):

- the variables it touches that live there: weights, optimizer slots, counters (each engine
  Variable counted once, on the device it was created on, ``Variable.device``);
- at its gradient call, what the tape kept for the backward pass, plus the gradients it makes:
  every distinct tensor a recorded op took or produced (the batch, each layer's outputs:
  whatever layer made them, so a new layer is counted without code of its own), variable reads
  excluded (they are the variables' own storage), plus one gradient per source.

``peak = variables + max over gradient calls (kept tensors + gradients)``. When it exceeds the
device's memory (``memory_bytes``, or the ``memory_limit`` of its logical device configuration,
sim/distribute/memory_capacity.py) the step fails with TensorFlow's ``ResourceExhaustedError`` (OOM),
naming the device and the sizes; the check runs at each gradient call (before any update)
and when the step ends (optimizer slots made by the first update included). A device with
``memory_bytes == 0`` (unknown) is never full. Read the peaks as
``strategy.extended.last_step_memory`` ({device name: bytes}).

The engine reports to the active tracker through ``sim.engine.counting`` (``note_variable``,
``note_backward``), which costs one truthiness test per variable access outside a step.
"""
from __future__ import annotations

from sim.distribute.memory_capacity import capacity     # memory_bytes, or the memory_limit set
from sim.engine.counting import _memory as _trackers     # the engine's list of trackers


class StepMemory:
    """The bytes one step holds per lane; ``lane`` is the lane running now (set by the timer)."""

    def __init__(self, devices):
        self._devices = devices
        self.lane = 0
        self._lane_of = {d.name: i for i, d in enumerate(devices)}
        self._seen: set = set()                 # ids of variables counted (alive for the step)
        self.variables = [0] * len(devices)     # bytes of variables per lane
        self.backward = [0] * len(devices)      # largest (kept tensors + gradients) per lane
        self._parts = [(0, 0)] * len(devices)   # (kept, gradients) of that largest backward

    def __enter__(self):
        _trackers.append(self)
        return self

    def __exit__(self, *exc):
        _trackers.remove(self)
        return False

    # -- what the engine reports ------------------------------------------------------------
    def note_variable(self, var):
        key = id(var)
        if key in self._seen:
            return
        self._seen.add(key)
        lane = self._lane_of.get(var._device)
        if lane is None:
            lane = self.lane
        self.variables[lane] += var._value.nbytes

    def note_backward(self, kept, gradients):
        lane = self.lane
        if kept + gradients > self.backward[lane]:
            self.backward[lane] = kept + gradients
            self._parts[lane] = (kept, gradients)
        self.check(lane)

    # -- what the step reports ---------------------------------------------------------------
    def peaks(self):
        """``{device name: peak bytes}`` of the step."""
        return {d.name: self.variables[i] + self.backward[i] for i, d in enumerate(self._devices)}

    def check(self, lane=None):
        """Raise ResourceExhaustedError if a lane's peak exceeds its device's memory."""
        for i in range(len(self._devices)) if lane is None else (lane,):
            device = self._devices[i]
            need = self.variables[i] + self.backward[i]
            room = capacity(device)
            if room and need > room:
                raise out_of_memory(device, need, self.variables[i], *self._parts[i])


def out_of_memory(device, need, variables, kept, gradients):
    """TensorFlow's ResourceExhaustedError for ``device``, with the sizes in the course language."""
    from sim.engine.errors import ResourceExhaustedError
    from sim.i18n import t
    allocator = f"{device.device_type}_{device.index}_bfc"
    return ResourceExhaustedError(None, None, (
        f"OOM when allocating tensor on {device.name} by allocator {allocator}\n"
        + t("memory.oom", device=device.short_name, need=format_bytes(need),
            capacity=format_bytes(capacity(device)), variables=format_bytes(variables),
            kept=format_bytes(kept), gradients=format_bytes(gradients))))


def format_bytes(n) -> str:
    """Bytes with an SI prefix, 3 significant digits: ``'1.5 MB'``, ``'16 GB'``."""
    n = float(n)
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.3g} {unit}"
        n /= 1000
    return f"{n:.3g} TB"
