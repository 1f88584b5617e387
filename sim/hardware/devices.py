"""Devices: what one GPU, CPU or TPU core can do, and its TensorFlow name.

A ``Device`` is a node of a ``Machine`` that runs compute. Its numbers come from a
``DeviceSpec`` read off a vendor data sheet (cited below), so a lesson can say
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
    """Peak numbers of one device model (all SI: FLOP/s, bytes, bytes/s)."""

    model: str
    device_type: str
    peak_flops: Mapping[str, float]
    memory_bytes: float
    memory_bandwidth: float
    source: str = ""


def _spec(model, device_type, flops, memory_bytes, memory_bandwidth, source):
    return DeviceSpec(model, device_type, MappingProxyType(dict(flops)), memory_bytes,
                      memory_bandwidth, source)


# NVIDIA Tesla V100 data sheet (SXM2): 7.8 fp64, 15.7 fp32, 125 tensor (fp16) TFLOP/s, 900 GB/s HBM2.
V100_SXM2 = _spec("V100-SXM2-16GB", "GPU",
                  {"float64": 7.8e12, "float32": 15.7e12, "float16": 125e12}, 16 * GiB, 900e9,
                  "NVIDIA Tesla V100 data sheet (SXM2 column)")
# Same data sheet, PCIe column: 7 fp64, 14 fp32, 112 tensor TFLOP/s, 900 GB/s.
V100_PCIE = _spec("V100-PCIe-16GB", "GPU",
                  {"float64": 7e12, "float32": 14e12, "float16": 112e12}, 16 * GiB, 900e9,
                  "NVIDIA Tesla V100 data sheet (PCIe column)")
# NVIDIA A100 data sheet (SXM4 40GB): 9.7 fp64, 19.5 fp32, 156 tf32, 312 bf16/fp16 dense TFLOP/s,
# 1555 GB/s HBM2.
A100_SXM4 = _spec("A100-SXM4-40GB", "GPU",
                  {"float64": 9.7e12, "float32": 19.5e12, "tfloat32": 156e12,
                   "bfloat16": 312e12, "float16": 312e12}, 40 * GiB, 1555e9,
                  "NVIDIA A100 data sheet (SXM4 40GB, dense tensor rates)")
# NVIDIA H100 data sheet (SXM5 80GB): 34 fp64, 67 fp32, 494.5 tf32, 989 bf16/fp16 dense TFLOP/s
# (the sheet prints twice these with sparsity), 3.35 TB/s HBM3.
H100_SXM5 = _spec("H100-SXM5-80GB", "GPU",
                  {"float64": 34e12, "float32": 67e12, "tfloat32": 494.5e12,
                   "bfloat16": 989e12, "float16": 989e12}, 80 * GiB, 3.35e12,
                  "NVIDIA H100 data sheet (SXM5, dense tensor rates)")
# Cloud TPU v3 docs: 123 TFLOP/s bf16 and 32 GiB HBM (900 GB/s) per chip of 2 cores; TensorFlow
# shows each core as one TPU device, so a core gets half. float32 matmuls on TPU run on the bf16
# MXU at XLA's default precision, so we give float32 the same peak (an assumption).
TPU_V3_CORE = _spec("TPU-v3-core", "TPU",
                    {"bfloat16": 61.5e12, "float32": 61.5e12}, 16 * GiB, 450e9,
                    "Cloud TPU v3 docs (per chip: 123 TFLOP/s bf16, 32 GiB, 900 GB/s; halved per core)")
# Cloud TPU v4 docs: 275 TFLOP/s bf16, 32 GiB HBM2 at 1200 GB/s per chip; the two TensorCores
# form one "megacore", one TensorFlow device per chip.
TPU_V4_CHIP = _spec("TPU-v4-chip", "TPU",
                    {"bfloat16": 275e12, "float32": 275e12}, 32 * GiB, 1200e9,
                    "Cloud TPU v4 docs (per chip)")
# Intel Xeon Platinum 8380 (Ice Lake, 40 cores, 2.3 GHz base): 2 AVX-512 FMA units x 16 fp32 lanes
# x 2 FLOP = 64 FLOP/cycle/core -> 40 x 2.3e9 x 64 = 5.888 TFLOP/s fp32 (half for fp64);
# 8 channels of DDR4-3200 x 8 bytes = 204.8 GB/s (Intel ARK).
XEON_8380 = _spec("Xeon-Platinum-8380", "CPU",
                  {"float64": 2.944e12, "float32": 5.888e12}, 256 * GiB, 204.8e9,
                  "Intel ARK, Xeon Platinum 8380 (derived peak: cores x clock x FLOP/cycle)")

# NVIDIA Tesla P100 data sheet (2016): SXM2 (NVLink) 5.3 fp64, 10.6 fp32, 21.2 fp16 TFLOP/s; PCIe
# 4.7, 9.3, 18.7 TFLOP/s; both 16 GB HBM2 at 732 GB/s (no tensor cores).
P100_SXM2 = _spec("P100-SXM2-16GB", "GPU",
                  {"float64": 5.3e12, "float32": 10.6e12, "float16": 21.2e12}, 16 * GiB, 732e9,
                  "NVIDIA Tesla P100 data sheet (SXM2 / NVLink column)")
P100_PCIE = _spec("P100-PCIe-16GB", "GPU",
                  {"float64": 4.7e12, "float32": 9.3e12, "float16": 18.7e12}, 16 * GiB, 732e9,
                  "NVIDIA Tesla P100 data sheet (PCIe column, 16 GB)")
# Intel Xeon E5-2698 v4 (Broadwell, 20 cores, 2.2 GHz base; the DGX-1's CPUs): 2 AVX2 FMA units x 8
# fp32 lanes x 2 FLOP = 32 FLOP/cycle/core -> 20 x 2.2e9 x 32 = 1.408 TFLOP/s fp32; 4 channels of
# DDR4-2400 x 8 bytes = 76.8 GB/s (Intel ARK).
XEON_E5_2698V4 = _spec("Xeon-E5-2698-v4", "CPU",
                       {"float64": 0.704e12, "float32": 1.408e12}, 256 * GiB, 76.8e9,
                       "Intel ARK, Xeon E5-2698 v4 (derived peak: cores x clock x FLOP/cycle)")

SPECS = {s.model: s for s in (V100_SXM2, V100_PCIE, A100_SXM4, H100_SXM5, TPU_V3_CORE,
                              TPU_V4_CHIP, XEON_8380,
                              P100_SXM2, P100_PCIE, XEON_E5_2698V4)}


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

    def __str__(self) -> str:
        return self.short_name
