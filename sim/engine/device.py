"""``tf.device``: a scope naming where ops run; the name canonicalized as TensorFlow does."""
from __future__ import annotations

import re
from contextlib import contextmanager

_stack: list = []


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


@contextmanager
def device(device_name):
    """Run the block's ops on ``device_name`` (recorded for ``Tensor.device``; no placement)."""
    _stack.append(canonical(device_name) if device_name else None)
    try:
        yield
    finally:
        _stack.pop()


def current_device_name() -> str:
    for name in reversed(_stack):
        if name:
            return name
    try:
        from sim.runtime import current_machine
        has_gpu = any(d.device_type == "GPU" for d in current_machine().devices)
    except Exception:  # noqa: BLE001 - no machine yet: TensorFlow's CPU default
        has_gpu = False
    return f"/job:localhost/replica:0/task:0/device:{'GPU' if has_gpu else 'CPU'}:0"
