"""How much memory a simulated device offers, and TensorFlow's OOM for one oversized variable.

``capacity(device)``: the device's ``memory_bytes``, or less when the learner capped it with
``tf.config.set_logical_device_configuration(gpu, [LogicalDeviceConfiguration(memory_limit=MB)])``
as TensorFlow does (``memory_limit`` in MiB; a device split into several logical devices
offers the sum of their limits, since the simulator places replicas on physical devices).
``0`` means unknown, never full.

``check_variable(shape, dtype)``: a variable bigger than the device it will be created on
raises ``ResourceExhaustedError`` before the host allocates it (the simulated 16 GB GPU is
full long before the host's NumPy runs out), and a NumPy ``MemoryError`` while making its
initial value becomes the same error.
"""
from __future__ import annotations

import math

import numpy as np

MIB = 1 << 20


def capacity(device) -> float:
    """Bytes ``device`` (a sim.hardware Device) can hold: ``memory_limit`` wins when set."""
    full = float(getattr(device, "memory_bytes", 0) or 0)
    limits = _logical_limits(device)
    if not limits:
        return full
    capped = float(sum(limits)) * MIB
    return min(full, capped) if full else capped


def _logical_limits(device):
    from sim.distribute import device_config as config
    if getattr(device, "host", 0) != 0 or config._state["machine"] is None:
        return None
    key = config.PhysicalDevice(f"/physical_device:{device.device_type}:{device.index}",
                                device.device_type)
    logical = config._state["logical"].get(key)
    if not logical or any(c.memory_limit is None for c in logical):
        return None
    return [c.memory_limit for c in logical]


def check_variable(shape, dtype, name=None):
    """Raise ResourceExhaustedError if a ``shape``/``dtype`` variable cannot fit its device."""
    from sim.engine.device import current_device_name
    if _on_parameter_servers():
        return
    try:
        from sim.runtime import current_machine
        device = current_machine().device(current_device_name())
    except Exception:  # noqa: BLE001 - a device the machine does not know: nothing to compare
        return
    need = math.prod(int(s) for s in shape) * np.dtype(dtype).itemsize
    room = capacity(device)
    if room and need > room:
        raise variable_too_big(device, need, room, shape, dtype, name)


def _on_parameter_servers():
    """Under a ParameterServerStrategy the variable goes to the ps tasks (maybe in shards)."""
    try:
        from sim.distribute.context import get_strategy
        return hasattr(get_strategy(), "_variable_partitioner")
    except Exception:  # noqa: BLE001
        return False


def variable_too_big(device, need, room, shape, dtype, name=None):
    """TensorFlow's OOM text for one allocation, with the sizes in the course language."""
    from sim.distribute.memory import format_bytes
    from sim.engine.errors import ResourceExhaustedError
    from sim.i18n import t
    return ResourceExhaustedError(None, None, (
        f"OOM when allocating tensor with shape[{','.join(str(int(s)) for s in shape)}] and type "
        f"{np.dtype(dtype).name} on {device.name} by allocator "
        f"{device.device_type}_{device.index}_bfc\n"
        + t("memory.variable_too_big", name=name or "variable", need=format_bytes(need),
            device=device.short_name, capacity=format_bytes(room))))


def initial_value(initializer, shape, dtype, name=None):
    """``initializer(shape, dtype=dtype)``, checked against the device first; NumPy's
    MemoryError (the host is full) becomes TensorFlow's ResourceExhaustedError."""
    check_variable(shape, dtype, name)
    try:
        return initializer(shape, dtype=dtype)
    except MemoryError:
        from sim.engine.device import current_device_name
        from sim.runtime import current_machine
        device = current_machine().device(current_device_name())
        need = math.prod(int(s) for s in shape) * np.dtype(dtype).itemsize
        raise variable_too_big(device, need, capacity(device), shape, dtype, name) from None
