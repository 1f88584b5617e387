"""``tf.config.experimental``: memory growth and the older spellings of device functions."""
from __future__ import annotations

from sim.tf._lazy import module_getattr
from sim.tf.config import (VirtualDeviceConfiguration, _check_machine, _state,  # noqa: F401
                           get_visible_devices, list_logical_devices, list_physical_devices,
                           set_visible_devices)
from sim.tf.config import get_logical_device_configuration as get_virtual_device_configuration  # noqa: F401
from sim.tf.config import set_logical_device_configuration as set_virtual_device_configuration  # noqa: F401


def set_memory_growth(device, enable):
    """Accepted and remembered; simulated memory is not allocated ahead."""
    _check_machine()
    _state["growth"][device] = bool(enable)


def get_memory_growth(device):
    _check_machine()
    return _state["growth"].get(device, False)


def get_device_details(device):
    m = _check_machine()
    for d in m.devices:
        if d.device_type == device.device_type and f":{d.index}" == device.name[-len(f':{d.index}'):]:
            spec = getattr(d, "spec", None)
            return {"device_name": getattr(spec, "name", d.device_type)}
    return {}


__getattr__ = module_getattr("sim.tf.config.experimental")
