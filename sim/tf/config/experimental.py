"""``tf.config.experimental``: memory growth, TensorFloat-32, and the older spellings of device
functions."""
from __future__ import annotations

from sim.distribute.device_config import (VirtualDeviceConfiguration,  # noqa: F401
                                          get_device_details, get_memory_growth,
                                          get_visible_devices, list_logical_devices,
                                          list_physical_devices, set_memory_growth,
                                          set_visible_devices)
from sim.distribute.device_config import get_logical_device_configuration as get_virtual_device_configuration  # noqa: F401,E501
from sim.distribute.device_config import set_logical_device_configuration as set_virtual_device_configuration  # noqa: F401,E501
from sim.tf._lazy import module_getattr


def enable_tensor_float_32_execution(enabled):
    """``tf.config.experimental.enable_tensor_float_32_execution``: recorded for the time model
    (sim.runtime.tensor_float_32_enabled); CPU numbers are unchanged, as TensorFlow's on CPU."""
    from sim.runtime import set_tensor_float_32
    set_tensor_float_32(enabled)


def tensor_float_32_execution_enabled():
    from sim.runtime import tensor_float_32_enabled
    return tensor_float_32_enabled()


__getattr__ = module_getattr("sim.tf.config.experimental")
