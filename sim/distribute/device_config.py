"""Which devices a program sees: ``tf.config``'s state (visibility, logical splits, growth).

Devices come from ``sim.runtime.current_machine()`` (this host's devices, CPU first).
Physical names read ``/physical_device:GPU:0``, logical ones ``/device:GPU:0``, as in
TensorFlow. Visibility and logical (virtual) device splits are kept here and shape what
``list_logical_devices`` reports.
"""
from __future__ import annotations

from typing import NamedTuple

from sim.engine import soft_placement
from sim.engine.function import functions_run_eagerly, run_functions_eagerly  # noqa: F401


class PhysicalDevice(NamedTuple):
    name: str
    device_type: str


class LogicalDevice(NamedTuple):
    name: str
    device_type: str


class LogicalDeviceConfiguration(NamedTuple):
    memory_limit: int | None = None
    experimental_priority: int | None = None
    experimental_device_ordinal: int | None = None


VirtualDeviceConfiguration = LogicalDeviceConfiguration

_state = {"machine": None, "visible": None, "logical": {}, "growth": {}, "cluster": None}


def _check_machine():
    """Forget settings made for another machine (after ``sim.runtime.use_machine``)."""
    from sim.runtime import current_machine
    m = current_machine()
    if _state["machine"] is not m:
        _state.update(machine=m, visible=None, logical={}, growth={})
    return m


def list_physical_devices(device_type=None):
    """This host's devices: ``[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU'), ...]``."""
    m = _check_machine()
    found = []
    for kind in ("CPU", "GPU", "TPU"):
        if device_type is not None and kind != device_type.upper():
            continue
        for d in sorted((d for d in m.devices if d.device_type == kind and d.host == 0),
                        key=lambda d: d.index):
            found.append(PhysicalDevice(f"/physical_device:{kind}:{d.index}", kind))
    return found


def get_visible_devices(device_type=None):
    _check_machine()
    vis = _state["visible"]
    every = list_physical_devices()
    devs = every if vis is None else [d for d in every if d in vis or d.device_type == "CPU"]
    return [d for d in devs if device_type is None or d.device_type == device_type.upper()]


def set_visible_devices(devices, device_type=None):
    """Hide devices from the runtime (TensorFlow keeps the CPU visible)."""
    _check_machine()
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    keep = list(devices)
    if device_type is not None:
        others = [d for d in get_visible_devices() if d.device_type != device_type.upper()]
        keep = others + [d for d in keep if d.device_type == device_type.upper()]
    _state["visible"] = keep


def set_logical_device_configuration(device, logical_devices):
    """Split one physical device into ``len(logical_devices)`` logical ones."""
    _check_machine()
    _state["logical"][device] = list(logical_devices) if logical_devices is not None else None


def get_logical_device_configuration(device):
    _check_machine()
    return _state["logical"].get(device)


def list_logical_devices(device_type=None):
    """Visible devices as the runtime names them: ``LogicalDevice(name='/device:GPU:0', ...)``."""
    out, counts = [], {}
    for d in get_visible_devices():
        n = len(_state["logical"].get(d) or [None])
        for _ in range(n):
            i = counts.get(d.device_type, 0)
            counts[d.device_type] = i + 1
            out.append(LogicalDevice(f"/device:{d.device_type}:{i}", d.device_type))
    return [d for d in out if device_type is None or d.device_type == device_type.upper()]


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost", task_index=0,
                                    protocol=None, make_master_device_default=True,
                                    cluster_device_filters=None):
    """Remember the cluster; a TPUClusterResolver also makes its simulated TPU the current machine."""
    _state["cluster"] = cluster_spec_or_resolver
    from sim.distribute import tpu

    if isinstance(cluster_spec_or_resolver, tpu.TPUClusterResolver):
        tpu.experimental_connect_to_cluster(cluster_spec_or_resolver)


def experimental_connect_to_host(remote_host=None, job_name="worker"):
    _state["cluster"] = remote_host


def experimental_run_functions_eagerly(run_eagerly):
    run_functions_eagerly(run_eagerly)


def set_soft_device_placement(enabled):
    """Off: ``tf.device`` naming a device the machine lacks raises InvalidArgumentError."""
    soft_placement.set_enabled(enabled)


def get_soft_device_placement():
    return soft_placement.enabled()


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


soft_placement.logical_devices = list_logical_devices   # tf.device sees logical splits
