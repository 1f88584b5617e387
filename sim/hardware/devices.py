"""Devices: what one GPU, CPU or TPU core can do, and its TensorFlow name.

A ``Device`` is a node of a ``Machine`` that runs compute. Its numbers come from a
``DeviceSpec`` read off a vendor data sheet (cited in data/devices.toml), so a lesson can say
"an A100 does 19.5 TFLOP/s in float32" and the simulator agrees.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

DEVICE_TYPES = ("GPU", "CPU", "TPU")
GiB = 2**30


@dataclass(frozen=True)
class DeviceSpec:
    """Peak numbers of one device model (all SI: FLOP/s, bytes, bytes/s).

    ``tensor_dtypes``: the dtypes of ``peak_flops`` that tensor cores (a TPU's MXU) compute;
    ``sms``: streaming multiprocessors (0 when not a GPU or not known)."""

    model: str
    device_type: str
    peak_flops: Mapping[str, float]
    memory_bytes: float
    memory_bandwidth: float
    source: str = ""
    tensor_dtypes: tuple = ()
    sms: int = 0


def _spec(model, device_type, flops, memory_bytes, memory_bandwidth, source, tensor=(), sms=0):
    return DeviceSpec(model, device_type, MappingProxyType(dict(flops)), memory_bytes,
                      memory_bandwidth, source, tuple(tensor), int(sms))


# Every model's numbers live in one file, data/devices.toml (vendor data sheets, cited there),
# read by the same reader as a learner's machine file (sim.hardware.machine_file).
def _catalogue() -> dict:
    from sim.hardware.machine_file import read_device_catalogue
    return read_device_catalogue()


SPECS = _catalogue()
K80 = SPECS["K80-GK210"]
V100_SXM2, V100_PCIE = SPECS["V100-SXM2-16GB"], SPECS["V100-PCIe-16GB"]
A100_SXM4, H100_SXM5, T4 = SPECS["A100-SXM4-40GB"], SPECS["H100-SXM5-80GB"], SPECS["T4"]
TPU_V3_CORE, TPU_V4_CHIP = SPECS["TPU-v3-core"], SPECS["TPU-v4-chip"]
XEON_8380, XEON_E5_2698V4 = SPECS["Xeon-Platinum-8380"], SPECS["Xeon-E5-2698-v4"]
P100_SXM2, P100_PCIE = SPECS["P100-SXM2-16GB"], SPECS["P100-PCIe-16GB"]


def full_name(job: str, task: int, device_type: str, index: int) -> str:
    """TensorFlow's full device name, e.g. ``/job:worker/replica:0/task:1/device:GPU:0``."""
    return f"/job:{job}/replica:0/task:{task}/device:{device_type}:{index}"


@dataclass(frozen=True, eq=False)
class Device:
    """One compute device of a machine (hashable by identity, immutable).

    ``name`` is TensorFlow's full name; ``short_name`` is ``/gpu:0`` on a single host and
    ``/task:1/gpu:0`` on a cluster (TensorFlow parses both).
    """

    name: str
    short_name: str
    device_type: str
    host: int
    index: int
    peak_flops: Mapping[str, float] = field(repr=False)
    memory_bytes: float = field(repr=False)
    memory_bandwidth: float = field(repr=False)
    model: str = ""
    job: str = "localhost"
    tensor_dtypes: tuple = field(default=(), repr=False)
    sms: int = field(default=0, repr=False)

    def __str__(self) -> str:
        return self.short_name
