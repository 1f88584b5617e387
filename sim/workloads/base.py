"""A workload: a model's layers as the simulator sees them (parameters and FLOPs per sample).

Each model module builds its layers by code from the architecture's definition (kernel sizes,
channels, strides, sequence length), so the totals are derived, never typed in. Counting rules,
stated once:

* FLOPs are 2 x multiply-accumulates (MACs) of the convolutions, matrix products and attention
  products; element-wise work (batch norm, activations, pooling, softmax) is left out, as the
  published figures leave it out.
* Backward FLOPs = 2 x forward for every layer (one product for the input gradient, one for the
  weight gradient: the usual rule, e.g. Kaplan et al. 2020, "Scaling Laws for Neural Language
  Models", §2.1).
* Gradient bytes = 4 x trainable parameters (float32 gradients, what is all-reduced).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Layer:
    """One layer (or fused conv + batch norm unit): its trainable parameters and FLOPs per sample."""

    name: str
    params: int
    forward_flops: float
    backward_flops: float

    @property
    def gradient_bytes(self) -> int:
        return 4 * self.params


@dataclass(frozen=True)
class Workload:
    """A model's layers in forward order and what the per-sample numbers mean."""

    name: str
    family: str                   # key of sim.workloads.throughput.ACHIEVED (per device)
    layers: tuple
    sample: str                   # what one sample is ("224x224 image", "sequence of 128 tokens")
    source: str                   # where the architecture comes from
    published: dict = field(default_factory=dict)   # published parameter count / FLOPs

    @property
    def params(self) -> int:
        return sum(layer.params for layer in self.layers)

    @property
    def gradient_bytes(self) -> int:
        return 4 * self.params

    @property
    def forward_flops(self) -> float:
        return sum(layer.forward_flops for layer in self.layers)

    @property
    def backward_flops(self) -> float:
        return sum(layer.backward_flops for layer in self.layers)

    @property
    def flops(self) -> float:
        """Training FLOPs per sample (forward + backward)."""
        return self.forward_flops + self.backward_flops

    def backward_order(self) -> list:
        """The layers in the order backprop finishes their gradients (last layer first)."""
        return list(reversed(self.layers))


class Builder:
    """Collects layers while a model module walks its architecture; tracks the feature map."""

    def __init__(self):
        self.layers: list = []

    def add(self, name: str, params: int, macs: float) -> None:
        self.layers.append(Layer(name, int(params), 2.0 * macs, 4.0 * macs))

    def conv(self, name: str, cin: int, cout: int, k, out_hw, bias: bool = False,
             bn: bool = True) -> None:
        """A convolution of kernel ``k`` (int or (kh, kw)) producing an ``out_hw`` map (int or
        (h, w)); ``bn`` folds its batch norm (gamma and beta) into the same layer."""
        kh, kw = (k, k) if isinstance(k, int) else k
        oh, ow = (out_hw, out_hw) if isinstance(out_hw, int) else out_hw
        params = cin * cout * kh * kw + (cout if bias else 0) + (2 * cout if bn else 0)
        self.add(name, params, cin * cout * kh * kw * oh * ow)

    def dense(self, name: str, n_in: int, n_out: int, tokens: int = 1, bias: bool = True) -> None:
        self.add(name, n_in * n_out + (n_out if bias else 0), n_in * n_out * tokens)


def conv_out(size: int, k: int, stride: int = 1, pad: int = 0) -> int:
    """Output length of a convolution or pooling window along one axis."""
    return (size + 2 * pad - k) // stride + 1
