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
* For the roofline (``sim.workloads.roofline``) each layer also says what kind of kernel it is
  (``op``: conv, matmul, or none for a pure memory-bound layer such as a LayerNorm), how many
  elements it reads and writes per sample (``inputs``, ``outputs``), and how many memory-bound
  passes over its output follow it (``passes``: batch norm 3 forward / 4 backward, an activation
  2 / 3, a bias add 2 / 1, see ``PASSES``). A convolution's input is its output's map times the stride squared, with ``cin`` channels.
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
    op: str = "matmul"                # "conv", "matmul", or "none" (memory-bound only)
    inputs: float = 0.0               # elements read per sample
    outputs: float = 0.0              # elements written per sample
    passes: tuple = (0, 0)            # memory-bound passes over the output (forward, backward)
    kernel: tuple = ()                # a convolution's (kh, kw)
    stride: int = 1

    @property
    def gradient_bytes(self) -> int:
        return 4 * self.params


# Memory-bound passes over a tensor (reads + writes of every element), forward and backward:
# batch norm reads its input twice (statistics, then normalising) and writes once, and backward
# reads the output gradient and the input for its two reductions, then again to write the input
# gradient; an activation or a bias add reads and writes once, and backward reads the output
# gradient and the saved tensor and writes one. A bias add's backward only sums the output
# gradient (one read); an embedding lookup reads and writes its rows, and backward adds the
# gradient rows back (read and write).
PASSES = {"batch_norm": (3, 4), "activation": (2, 3), "bias": (2, 1), "layer_norm": (3, 4),
          "softmax": (2, 3), "embedding": (2, 2)}


def passes_of(*names: str) -> tuple:
    return tuple(sum(PASSES[n][i] for n in names) for i in (0, 1))


@dataclass(frozen=True)
class Workload:
    """A model's layers in forward order and what the per-sample numbers mean."""

    name: str
    family: str                   # the model family (resnet, vgg, transformer...)
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

    def add(self, name: str, params: int, macs: float, op: str = "matmul", inputs: float = 0.0,
            outputs: float = 0.0, passes: tuple = (0, 0), kernel: tuple = (), stride: int = 1) -> None:
        self.layers.append(Layer(name, int(params), 2.0 * macs, 4.0 * macs,
                                 op if macs else "none", float(inputs), float(outputs), passes,
                                 tuple(kernel), int(stride)))

    def conv(self, name: str, cin: int, cout: int, k, out_hw, bias: bool = False,
             bn: bool = True, stride: int = 1) -> None:
        """A convolution of kernel ``k`` (int or (kh, kw)) producing an ``out_hw`` map (int or
        (h, w)); ``bn`` folds its batch norm (gamma and beta) into the same layer. Every
        convolution is followed by a ReLU (and by its bias add when it has one)."""
        kh, kw = (k, k) if isinstance(k, int) else k
        oh, ow = (out_hw, out_hw) if isinstance(out_hw, int) else out_hw
        params = cin * cout * kh * kw + (cout if bias else 0) + (2 * cout if bn else 0)
        after = ("batch_norm", "activation") if bn else (("bias",) if bias else ()) + ("activation",)
        self.add(name, params, cin * cout * kh * kw * oh * ow, "conv", cin * oh * ow * stride ** 2,
                 cout * oh * ow, passes_of(*after), (kh, kw), stride)

    def dense(self, name: str, n_in: int, n_out: int, tokens: int = 1, bias: bool = True,
              after: tuple = ("activation",)) -> None:
        """A matrix product over ``tokens`` rows, then its bias add and ``after`` (an activation
        by default; a layer norm's passes go to the layer norm's own layer)."""
        after = (("bias",) if bias else ()) + tuple(after)
        self.add(name, n_in * n_out + (n_out if bias else 0), n_in * n_out * tokens, "matmul",
                 n_in * tokens, n_out * tokens, passes_of(*after))


def conv_out(size: int, k: int, stride: int = 1, pad: int = 0) -> int:
    """Output length of a convolution or pooling window along one axis."""
    return (size + 2 * pad - k) // stride + 1
