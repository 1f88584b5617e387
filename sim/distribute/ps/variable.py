"""Variables on the parameter servers, and what one closure sees of them.

A closure scheduled by the ClusterCoordinator runs on a simulated worker from a start time to
an end time. Its Python code runs once, at the start: it reads the variables as they are on the
parameter servers at that moment. Its writes do not reach the parameter servers then; they are
kept in the closure's ``WorkerView`` (the closure still reads its own writes) and applied when
its simulated compute and transfers end (``commit``). Between the two, other workers' updates
may land: that gap, counted in updates, is the staleness of this closure's update.

How a write is applied at commit:
- nobody wrote the variable since the closure read it: the closure's final value is stored
  (exactly what a sequential run computes);
- otherwise its writes are replayed on the current value: ``assign_add``/``assign_sub`` add
  their delta, ``assign(x)`` adds ``x - value it replaced`` (the change it meant to make).
  So SGD's ``var -= lr * g`` is applied to the newest weights with a gradient computed from
  older ones: asynchronous SGD. With ``scale`` (the staleness-aware rule) the deltas of
  trainable variables are multiplied by it.
"""
from __future__ import annotations

import numpy as np

from sim.engine import tape
from sim.engine import dtypes
from sim.engine.tensor import Tensor
from sim.engine.variable import Variable

_view: list = [None]     # the WorkerView of the running closure, or None


class ParameterServerVariable(Variable):
    """A variable stored on one ps task (``/job:ps/replica:0/task:k/device:CPU:0``)."""

    _ps_task = 0

    def _as_tensor(self):
        view = _view[0]
        if view is None:
            return super()._as_tensor()
        value = view.read(self)
        t = Tensor(value, self._dtype if self._dtype is dtypes.bfloat16 else None)
        t._dev = self._device
        if tape._state.recording:
            tape.on_variable_read(self, t)
        return t

    def numpy(self):
        view = _view[0]
        v = self._value if view is None else view.read(self)
        return v.copy() if v.ndim else v[()]

    def __array__(self, dtype=None, copy=None):
        view = _view[0]
        v = self._value if view is None else view.read(self)
        return v if dtype is None else v.astype(dtype)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._buffered("assign", value) if _view[0] is not None else super().assign(value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._buffered("add", delta) if _view[0] is not None else super().assign_add(delta)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._buffered("sub", delta) if _view[0] is not None else super().assign_sub(delta)

    def _buffered(self, op, value):
        """Compute the new value with the engine's own checks, keep it in the closure's view."""
        from sim.engine.tensor import convert_to_tensor
        view = _view[0]
        real = self._value
        before = self._value = view.read(self)
        try:
            if op == "assign":
                Variable.assign(self, value)
                record = ("assign", self._value, before)
            else:
                Variable._update(self, value, np.add if op == "add" else np.subtract)
                record = (op, np.asarray(convert_to_tensor(value)._v))
            view.write(self, real, self._value, record)
            return self
        finally:
            self._value = real


class WorkerView:
    """One closure's reads and buffered writes, and the bytes it moves to and from each ps."""

    def __init__(self):
        self.local: dict = {}        # id(var) -> [var, local value, value at first write, ops]
        self.read_bytes: dict = {}   # ps task -> bytes read
        self._read: set = set()

    def __enter__(self):
        if _view[0] is not None:
            raise RuntimeError("a closure is already running")
        _view[0] = self
        return self

    def __exit__(self, *exc):
        _view[0] = None
        return False

    def read(self, var):
        entry = self.local.get(id(var))
        if entry is not None:
            return entry[1]
        if id(var) not in self._read:
            self._read.add(id(var))
            self.read_bytes[var._ps_task] = self.read_bytes.get(var._ps_task, 0) + var._value.nbytes
        return var._value

    def write(self, var, real, value, op):
        entry = self.local.get(id(var))
        if entry is None:
            entry = self.local[id(var)] = [var, value, real, []]
        entry[1] = value
        entry[3].append(op)

    @property
    def written(self):
        return [entry[0] for entry in self.local.values()]

    def write_bytes(self):
        """Bytes sent to each ps task: one update message per written variable."""
        out: dict = {}
        for var, value, _, _ in self.local.values():
            out[var._ps_task] = out.get(var._ps_task, 0) + value.nbytes
        return out

    def commit(self, scale=1.0):
        """Apply the buffered writes to the parameter servers (see the module docstring)."""
        for var, value, base, ops in self.local.values():
            current = var._value
            if current is base and scale == 1.0:
                var._value = value
                continue
            s = scale if var.trainable else 1.0
            for op in ops:
                if op[0] == "add":
                    current = current + s * op[1]
                elif op[0] == "sub":
                    current = current - s * op[1]
                else:
                    current = current + s * (op[1] - op[2])
            var._value = np.asarray(current, dtype=var._value.dtype)
