"""The roofline per layer (sim.workloads.roofline) against hand computation."""
import pytest

from sim.hardware import devices as D
from sim.hardware.machine import Machine
from sim.workloads import workload
from sim.workloads.base import Builder, Workload
from sim.workloads.roofline import (KERNEL_FRACTION, compute_times, layer_seconds, math_dtype,
                                    update_seconds, winograd)


def _gpu(spec):
    return Machine("one").add_device("GPU", spec)


def _dense(n_in=4096, n_out=4096, tokens=128):
    b = Builder()
    b.dense("fc", n_in, n_out, tokens=tokens)
    return b.layers[0]


def test_a_large_matmul_is_compute_bound_at_peak_times_the_measured_fraction():
    layer, gpu = _dense(), _gpu(D.V100_SXM2)
    forward, backward, bound = layer_seconds(layer, gpu, "float32", batch=8)
    flops = 8 * 2 * 4096 * 4096 * 128                           # 2 x MACs, 8 samples
    rate = 15.7e12 * (12.9e12 / (5120 * 2 * 1.455e9))           # V100 FP32 x TITAN V Linear fraction
    bias_and_relu = 8 * 4096 * 128 * 4 * (2 + 2) / 900e9        # outputs x 4 bytes x passes / HBM
    assert forward == pytest.approx(flops / rate + bias_and_relu)
    assert backward == pytest.approx(2 * flops / rate + 8 * 4096 * 128 * 4 * (1 + 3) / 900e9)
    assert bound == pytest.approx(bias_and_relu + 8 * 4096 * 128 * 4 * 4 / 900e9)


def test_mixed_float16_uses_the_tensor_cores_and_two_byte_activations():
    layer, gpu = _dense(), _gpu(D.V100_SXM2)
    forward, _, _ = layer_seconds(layer, gpu, "mixed_float16", batch=8)
    rate = 125e12 * (77.4e12 / 110e12)
    assert forward == pytest.approx(8 * 2 * 4096 * 4096 * 128 / rate + 8 * 4096 * 128 * 2 * 4 / 900e9)


def test_a_small_matmul_is_memory_bound():
    layer, gpu = _dense(64, 64, tokens=1), _gpu(D.A100_SXM4)
    forward, _, _ = layer_seconds(layer, gpu, "tf32", batch=1)
    moved = (64 + 64) * 4 + layer.params * 4                    # reads, writes and the weights
    assert forward == pytest.approx(moved / 1555e9 + 64 * 4 * 4 / 1555e9)


def test_batch_norm_and_relu_are_memory_bound_passes():
    b = Builder()
    b.conv("c", 64, 64, 3, 56)
    layer = b.layers[0]
    assert layer.passes == (3 + 2, 4 + 3)
    gpu = _gpu(D.P100_SXM2)
    forward, _, _ = layer_seconds(layer, gpu, "float32", batch=32)
    # a 3x3 stride-1 convolution on CUDA cores: Winograd F(2x2, 3x3), 36 / 16 fewer multiplies
    conv = 32 * 2 * 64 * 64 * 9 * 56 * 56 / (10.6e12 * KERNEL_FRACTION[("conv", "cuda")] * 36 / 16)
    assert forward == pytest.approx(conv + 32 * 64 * 56 * 56 * 4 * 5 / 732e9)


def test_winograd_only_for_3x3_stride_1_on_cuda_cores():
    b = Builder()
    b.conv("s1", 64, 64, 3, 56)
    b.conv("s2", 64, 64, 3, 28, stride=2)
    b.conv("1x1", 64, 64, 1, 56)
    s1, s2, one = b.layers
    assert s2.inputs == 64 * 56 * 56 and s1.inputs == 64 * 56 * 56
    assert winograd(s1, "cuda") == 36 / 16
    assert winograd(s2, "cuda") == winograd(one, "cuda") == winograd(s1, "tensor") == 1.0


def test_precision_falls_back_where_the_hardware_has_no_such_unit():
    assert math_dtype("tf32", _gpu(D.V100_SXM2)) == "float32"      # TF32 needs Ampere
    assert math_dtype("tf32", _gpu(D.A100_SXM4)) == "tfloat32"
    assert math_dtype("mixed_float16", _gpu(D.K80)) == "float32"   # Kepler: no float16 math
    assert math_dtype("mixed_float16", _gpu(D.P100_SXM2)) == "float16"
    p100 = compute_times(workload("resnet50"), _gpu(D.P100_SXM2), "mixed_float16", 64)
    assert p100.unit == "cuda"                                      # 2x rate, no tensor cores


def test_update_is_the_optimizers_bytes_at_memory_bandwidth():
    gpu = _gpu(D.A100_SXM4)
    assert update_seconds(1000, gpu, "tf32") == pytest.approx(1000 * 20 / 1555e9)
    assert update_seconds(1000, gpu, "mixed_float16") == pytest.approx(1000 * 32 / 1555e9)


def test_the_whole_model_is_the_sum_of_its_layers():
    model, gpu = workload("resnet50"), _gpu(D.A100_SXM4)
    times = compute_times(model, gpu, "mixed_float16", 256)
    rows = [layer_seconds(layer, gpu, "mixed_float16", 256) for layer in model.layers]
    assert times.total == pytest.approx(sum(f + b for f, b, _ in rows)
                                        + update_seconds(model.params, gpu, "mixed_float16"))
    assert 0 < times.memory_bound < times.total


def test_tensor_cores_make_resnet50_memory_bound_on_an_a100():
    """The memory wall: on an A100 in mixed precision most of a ResNet-50 step is memory-bound."""
    model = workload("resnet50")
    a100 = compute_times(model, _gpu(D.A100_SXM4), "mixed_float16", 256)
    p100 = compute_times(model, _gpu(D.P100_SXM2), "float32", 256)
    assert a100.memory_bound / a100.total > 0.5 > p100.memory_bound / p100.total


def test_an_unknown_precision_is_one_line():
    with pytest.raises(ValueError, match="mixed_float16") as err:
        compute_times(workload("resnet50"), _gpu(D.A100_SXM4), "fp8", 8)
    assert "\n" not in str(err.value)


def test_a_simulated_step_uses_the_roofline():
    from sim.scaleout import scale
    row = scale("resnet50", "dgx-a100", nodes=[1], gpus=[1], batch_per_device=256,
                precision="mixed_float16")[0]
    one = compute_times(workload("resnet50"), _gpu(D.A100_SXM4), "mixed_float16", 256)
    assert row["compute_ms"] == pytest.approx(one.total * 1e3)
