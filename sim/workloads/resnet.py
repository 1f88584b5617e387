"""ResNet-50/101/152, built block by block.

Architecture: He et al., "Deep Residual Learning for Image Recognition", CVPR 2016, Table 1
(bottleneck stages of 64/128/256/512 channels, x4 expansion, 3-4-6-3 / 3-4-23-3 / 3-8-36-3
blocks), in the "v1.5" form of torchvision's ``resnet.py`` and NVIDIA's and MLPerf's training
benchmarks: a block's stride sits on its 3x3 convolution, not the first 1x1. Convolutions have
no bias; each is followed by batch norm (gamma, beta trainable). Input 224x224x3.

Published figures (torchvision model docs, ``IMAGENET1K_V1`` weights): parameters 25,557,032 /
44,549,160 / 60,192,808 and 4.09 / 7.80 / 11.51 GFLOPS, which torchvision counts as
multiply-accumulates (so 2x that many FLOPs here). Keras Applications lists 25,636,712 for
ResNet-50: the same network plus a bias per convolution and batch norm's two non-trainable
moving statistics (collectives.md §7); those are not gradients, so they are not counted here.
"""
from __future__ import annotations

from .base import Builder, Workload, conv_out

BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}
PUBLISHED = {50: (25_557_032, 4.09e9), 101: (44_549_160, 7.80e9), 152: (60_192_808, 11.51e9)}
EXPANSION = 4


def resnet(depth: int, image: int = 224, classes: int = 1000) -> Workload:
    b = Builder()
    size = conv_out(image, 7, 2, 3)
    b.conv("conv1", 3, 64, 7, size, stride=2)
    size = conv_out(size, 3, 2, 1)                      # max pool
    cin = 64
    for stage, (blocks, width) in enumerate(zip(BLOCKS[depth], (64, 128, 256, 512))):
        for i in range(blocks):
            stride = 2 if stage > 0 and i == 0 else 1
            out = conv_out(size, 3, stride, 1)
            name = f"layer{stage + 1}.{i}"
            b.conv(name + ".conv1", cin, width, 1, size)
            b.conv(name + ".conv2", width, width, 3, out, stride=stride)
            b.conv(name + ".conv3", width, width * EXPANSION, 1, out)
            if stride != 1 or cin != width * EXPANSION:
                b.conv(name + ".downsample", cin, width * EXPANSION, 1, out, stride=stride)
            cin, size = width * EXPANSION, out
    b.dense("fc", cin, classes, after=("softmax",))
    params, macs = PUBLISHED[depth]
    return Workload(f"resnet{depth}", "resnet", tuple(b.layers), f"{image}x{image} image",
                    "He et al. CVPR 2016 Table 1; torchvision resnet.py (v1.5)",
                    {"params": params, "flops": 2 * macs, "flops_source": "torchvision docs (GFLOPS = GMACs)"})
