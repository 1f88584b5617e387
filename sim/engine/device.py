"""``tf.device``: a scope naming where ops run; the name canonicalized as TensorFlow does.

Tensors and Variables remember the device current when they were made (``.device``), as
TensorFlow's eager placement reports it. The scope stack is per thread, as in TensorFlow, so
each MirroredStrategy replica thread runs under its own device. The innermost named device is
kept in ``_state.top`` (None outside any scope) so a Tensor records it with one attribute read;
None means "the default device", resolved when ``.device`` is read: GPU:0 on a machine with
GPUs, else CPU:0.
"""
from __future__ import annotations

import re
import threading
from contextlib import contextmanager


class _State(threading.local):
    """This thread's device stack and its innermost non-None name (``top``)."""
    top = None

    def __init__(self):
        self.stack = []


_state = _State()
_default = (None, None)   # (machine, its default device name): looked up once per machine


def canonical(name: str) -> str:
    """'/gpu:1' or 'GPU:1' -> '/job:localhost/replica:0/task:0/device:GPU:1'."""
    if not name:
        return current_device_name()
    m = re.search(r"(?:device:)?(cpu|gpu|tpu)(?::(\d+))?\s*$", name, re.IGNORECASE)
    job = re.search(r"/job:(\w+)", name)
    task = re.search(r"/task:(\d+)", name)
    replica = re.search(r"/replica:(\d+)", name)
    if not m:
        return name
    return (f"/job:{job.group(1) if job else 'localhost'}/replica:{replica.group(1) if replica else 0}"
            f"/task:{task.group(1) if task else 0}/device:{m.group(1).upper()}:{m.group(2) or 0}")


def push(full_name):
    """Enter a device scope on this thread (``full_name`` already canonical, or None)."""
    s = _state
    s.stack.append(full_name)
    if full_name:
        s.top = full_name


def pop():
    """Leave the innermost device scope of this thread."""
    s = _state
    s.stack.pop()
    s.top = next((n for n in reversed(s.stack) if n), None)


@contextmanager
def device(device_name):
    """Run the block's ops on ``device_name``: tensors and variables made inside report it
    (a device the machine lacks: soft placement, sim/engine/soft_placement.py)."""
    from sim.engine.soft_placement import place
    push(place(canonical(device_name)) if device_name else None)
    try:
        yield
    finally:
        pop()


def default_device_name() -> str:
    """Where an op with no device scope runs: GPU:0 when the machine has a GPU, else CPU:0."""
    global _default
    try:
        from sim.runtime import current_machine
        machine = current_machine()
    except Exception:  # noqa: BLE001 - no machine yet: TensorFlow's CPU default
        machine = None
    if _default[0] is not machine or _default[1] is None:
        has_gpu = machine is not None and any(d.device_type == "GPU" for d in machine.devices)
        _default = (machine, f"/job:localhost/replica:0/task:0/device:{'GPU' if has_gpu else 'CPU'}:0")
    return _default[1]


def current_device_name() -> str:
    """The device a new op or variable lands on now (on this thread)."""
    return _state.top or default_device_name()
