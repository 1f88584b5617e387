"""The simulated machine the strategies run on: ``sim.runtime``'s current machine.

``use_machine`` switches it (TPU connection uses this); the helpers turn device names into
TensorFlow's full names on that machine.
"""
from __future__ import annotations

from sim.runtime import current_machine, use_machine

__all__ = ["canonical", "current_machine", "device", "local_devices", "use_machine"]


def local_devices(device_type, host=0):
    """Full TensorFlow names of the machine's devices of one type on one host, in index order."""
    machine = current_machine()
    return tuple(d.name for d in machine.devices_of(device_type, host=host))


def canonical(name):
    """A device name in TensorFlow's full form; a name unknown to the machine is a ValueError."""
    machine = current_machine()
    return machine.device(name).name


def device(name):
    return current_machine().device(name)
