"""``tf.config``: the simulated machine's devices under TensorFlow's names (``sim.distribute.device_config``)."""
from __future__ import annotations

from sim.distribute.device_config import (  # noqa: F401
    LogicalDevice,
    LogicalDeviceConfiguration,
    PhysicalDevice,
    VirtualDeviceConfiguration,
    experimental_connect_to_cluster,
    experimental_connect_to_host,
    experimental_run_functions_eagerly,
    functions_run_eagerly,
    get_logical_device_configuration,
    get_soft_device_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    run_functions_eagerly,
    set_logical_device_configuration,
    set_soft_device_placement,
    set_visible_devices)
from sim.tf._lazy import module_getattr

__getattr__ = module_getattr("sim.tf.config", ("experimental", "optimizer", "threading"))
