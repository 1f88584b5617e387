"""Compute time per layer by a roofline: a kernel takes its FLOPs at the precision's peak times
an achievable fraction for its kind of kernel, or its bytes at the device's memory bandwidth,
whichever is longer; batch norm, activations, bias adds, softmax, layer norm and the optimizer's
update are memory-bound passes (their bytes at memory bandwidth).

    kernel   = max(B x FLOPs / (peak[dtype] x fraction[op, unit]), bytes / bandwidth)
    memory   = B x outputs x element bytes x passes / bandwidth
    layer    = kernel + memory                 (forward and backward each, ``Layer`` counts)
    update   = parameters x update bytes / bandwidth      (once per step)

Precision, as TensorFlow sets it (``PRECISIONS``):

* ``float32``: Keras's ``float32`` policy with TF32 off
  (``tf.config.experimental.enable_tensor_float_32_execution(False)``): CUDA-core FP32.
* ``tf32``: the same policy as TensorFlow runs it by default: since TF 2.4 float32 matrix products
  and convolutions use TF32 tensor cores on GPUs that have them (Ampere and newer), FP32 elsewhere.
* ``mixed_float16`` / ``mixed_bfloat16``: the Keras mixed policies: layers compute in float16 /
  bfloat16 (2-byte activations), variables stay float32. A GPU without that dtype computes at its
  float32 rate (Kepler has no float16 arithmetic; bfloat16 needs Ampere): stated, not measured.

Achievable fractions (``KERNEL_FRACTION``): cited kernel measurements, never fitted to a training
rate. One benchmark measured both kinds of kernel in both precisions on one Volta GPU (PyTorch
1.0, CUDA 10.0, cuBLAS/cuDNN; gist ypwhs/a156353cb19e780e323be054821af015: a 4096x4096 Linear and
a 256-channel 8x8 Conv2d on a 256x256 map): TITAN V FP32 Linear 12.9, FP16 Linear 77.4, FP32
Conv2d 8.71, FP16 Conv2d 76.4 TFLOP/s. TITAN V peaks (NVIDIA TITAN V specifications: 5120 CUDA
cores at 1455 MHz boost = 14.9 TFLOP/s FP32; 110 tensor TFLOP/s) give the fractions. The same
gist's GTX 1080 Ti (Pascal, 3584 cores x 1582 MHz = 11.3 TFLOP/s) reads 10.5 and 6.29 in FP32:
0.93 and 0.56, the Volta figures within 7 points. Stated assumption: a generation's kernels reach
the same fraction of its own peak (TF32 and BF16 tensor cores as FP16's). Element bytes: 4 (float32
policies) or 2 (mixed). Memory bandwidth: the data sheet's, at full speed.
"""
from __future__ import annotations

from dataclasses import dataclass

PRECISIONS = ("float32", "tf32", "mixed_float16", "mixed_bfloat16")
DEFAULT_PRECISION = "tf32"           # TensorFlow's default: float32 policy, TF32 enabled
MATH_DTYPE = {"float32": "float32", "tf32": "tfloat32", "mixed_float16": "float16",
              "mixed_bfloat16": "bfloat16"}
ELEMENT_BYTES = {"float32": 4, "tf32": 4, "mixed_float16": 2, "mixed_bfloat16": 2}

TITAN_V_FP32, TITAN_V_TENSOR = 5120 * 2 * 1.455e9, 110e12
KERNEL_FRACTION = {("matmul", "cuda"): 12.9e12 / TITAN_V_FP32, ("conv", "cuda"): 8.71e12 / TITAN_V_FP32,
                   ("matmul", "tensor"): 77.4e12 / TITAN_V_TENSOR,
                   ("conv", "tensor"): 76.4e12 / TITAN_V_TENSOR}

WINOGRAD_F2X2_3X3 = 36 / 16

# Bytes per parameter the update moves, float32 variables: SGD reads the weight and its gradient
# and writes the weight (12); momentum also reads and writes its slot (20); Adam two slots (28).
# Mixed precision adds the weight's cast to the compute dtype (read 4, write 2) and the gradient's
# cast back to float32 (read 2, write 4) each step: 12 more.
UPDATE_BYTES = {"sgd": 12, "momentum": 20, "adam": 28}
MIXED_CAST_BYTES = 12


def check_precision(precision: str) -> str:
    if precision not in PRECISIONS:
        from sim.i18n import join_list, t
        raise ValueError(t("scale.bad_precision", value=precision, known=join_list(PRECISIONS)))
    return precision


def math_dtype(precision: str, device) -> str:
    """The dtype whose peak the matrix products of ``precision`` run at on ``device``."""
    want = MATH_DTYPE[check_precision(precision)]
    return want if want in device.peak_flops else "float32"


def unit_of(dtype: str, device) -> str:
    return "tensor" if dtype in getattr(device, "tensor_dtypes", ()) else "cuda"


@dataclass(frozen=True)
class ComputeTimes:
    """Seconds per layer (forward order) for one step of ``batch`` samples on one device."""

    forward: tuple
    backward: tuple
    update: float
    dtype: str               # what the matrix products ran in (``float32``, ``tfloat32``...)
    unit: str                # "tensor" or "cuda" cores
    memory_bound: float      # of the forward + backward seconds, those at memory bandwidth

    @property
    def total(self) -> float:
        return sum(self.forward) + sum(self.backward) + self.update


def layer_seconds(layer, device, precision: str, batch: int) -> tuple:
    """(forward, backward, of which memory-bound) seconds of ``layer`` for ``batch`` samples."""
    size = ELEMENT_BYTES[precision]
    dtype = math_dtype(precision, device)
    bandwidth = device.memory_bandwidth
    kernel_f = kernel_b = bound = 0.0
    if layer.op != "none":
        unit = unit_of(dtype, device)
        rate = device.peak_flops[dtype] * KERNEL_FRACTION[(layer.op, unit)] * winograd(layer, unit)
        moved = batch * (layer.inputs + layer.outputs) * size + layer.params * size
        math_f, math_b = batch * layer.forward_flops / rate, batch * layer.backward_flops / rate
        kernel_f, kernel_b = max(math_f, moved / bandwidth), max(math_b, 2 * moved / bandwidth)
        bound = (kernel_f if kernel_f > math_f else 0.0) + (kernel_b if kernel_b > math_b else 0.0)
    per_pass = batch * layer.outputs * size / bandwidth
    memory_f, memory_b = per_pass * layer.passes[0], per_pass * layer.passes[1]
    return kernel_f + memory_f, kernel_b + memory_b, bound + memory_f + memory_b


def winograd(layer, unit: str) -> float:
    """How many times fewer multiplications cuDNN's Winograd algorithm needs for ``layer``: 3x3,
    stride 1, on CUDA cores (TensorFlow autotunes each convolution's algorithm,
    ``TF_CUDNN_USE_AUTOTUNE``, and cuDNN offers ``CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD`` for 3x3).
    Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016: F(2x2, 3x3) takes
    16 multiplications for 4 outputs where direct convolution takes 36, 2.25x (its larger tile
    F(4x4, 3x3) saves 4x; the smaller is taken). Tensor-core convolutions run as implicit GEMM."""
    if layer.op == "conv" and layer.kernel == (3, 3) and layer.stride == 1 and unit == "cuda":
        return WINOGRAD_F2X2_3X3
    return 1.0


def update_seconds(params: int, device, precision: str, optimizer: str = "momentum") -> float:
    extra = MIXED_CAST_BYTES if ELEMENT_BYTES[precision] < 4 else 0
    return params * (UPDATE_BYTES[optimizer] + extra) / device.memory_bandwidth


_CACHE: dict = {}


def compute_times(model, device, precision: str = DEFAULT_PRECISION, batch: int = 64,
                  optimizer: str = "momentum") -> ComputeTimes:
    """Every layer's forward and backward seconds and the update's, for ``batch`` samples."""
    check_precision(precision)
    key = (id(model), model.name, device.model, tuple(sorted(device.peak_flops.items())),
           device.memory_bandwidth, tuple(getattr(device, "tensor_dtypes", ())), precision,
           batch, optimizer)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is model:
        return hit[1]
    rows = [layer_seconds(layer, device, precision, batch) for layer in model.layers]
    dtype = math_dtype(precision, device)
    times = ComputeTimes(tuple(r[0] for r in rows), tuple(r[1] for r in rows),
                         update_seconds(model.params, device, precision, optimizer), dtype,
                         unit_of(dtype, device), sum(r[2] for r in rows))
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[key] = (model, times)
    return times


def samples_per_second(model, device, precision: str = DEFAULT_PRECISION, batch: int = 64) -> float:
    """One device's training rate with nothing to synchronise: ``batch`` / the step's compute."""
    return batch / compute_times(model, device, precision, batch).total
