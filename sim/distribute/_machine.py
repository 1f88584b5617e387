"""The simulated machine the strategies run on: ``sim.runtime``'s current machine.

``use_machine`` switches it (TPU connection uses this); the helpers turn device names into
TensorFlow's full names on that machine.
"""
from __future__ import annotations

from sim.engine.device import canonical as full_name
from sim.runtime import current_machine, use_machine

__all__ = ["canonical", "current_machine", "device", "local_devices", "use_machine"]


def local_devices(device_type, host=0):
    """Full TensorFlow names of the machine's devices of one type on one host, in index order."""
    machine = current_machine()
    return tuple(d.name for d in machine.devices_of(device_type, host=host))


def canonical(name):
    """A device name in TensorFlow's full form; a local GPU the machine lacks is soft-placed on its
    CPU (soft_placement.py); any other name unknown to the machine is a ValueError."""
    machine = current_machine()
    try:
        device = machine.device(name)
    except ValueError:
        from sim.distribute.strategy_placement import place
        soft = place(machine, name)
        if soft is None:
            raise
        return soft
    if isinstance(name, str) and device.device_type == "CPU" and full_name(name) != device.name:
        return full_name(name)   # soft-placed before: keep the name asked for
    return device.name


def device(name):
    return current_machine().device(name)
