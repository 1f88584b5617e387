"""The simulated machine the strategies run on (``sim.runtime``'s current machine).

Until sim.runtime exists we keep a fallback here with the course default preset, so the
strategies work either way; ``use_machine`` switches it (TPU connection uses this).
"""
from __future__ import annotations

_fallback = None


def current_machine():
    try:
        from sim.runtime import current_machine as runtime_machine
    except ImportError:
        global _fallback
        if _fallback is None:
            from sim.hardware import DEFAULT, preset
            _fallback = preset(DEFAULT)
        return _fallback
    return runtime_machine()


def use_machine(machine):
    """Make ``machine`` (a Machine or a preset name) the current one."""
    try:
        from sim.runtime import use_machine as runtime_use
    except ImportError:
        global _fallback
        if isinstance(machine, str):
            from sim.hardware import preset
            machine = preset(machine)
        _fallback = machine
        return machine
    return runtime_use(machine)


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
