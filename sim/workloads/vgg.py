"""VGG-16 (configuration "D"), built layer by layer.

Architecture: Simonyan & Zisserman, "Very Deep Convolutional Networks for Large-Scale Image
Recognition", ICLR 2015, Table 1 column D: 3x3 convolutions with bias (64, 64, M, 128, 128, M,
256 x3, M, 512 x3, M, 512 x3, M), then fully connected 25088 -> 4096 -> 4096 -> 1000; no batch
norm. Input 224x224x3.

Published figures: 138,357,544 parameters (torchvision docs ``VGG16_Weights.IMAGENET1K_V1``; Keras
Applications lists the same, collectives.md §7) and 15.47 GFLOPS counted as multiply-accumulates
(torchvision docs).
"""
from __future__ import annotations

from .base import Builder, Workload

CONFIG_D = (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M")


def vgg16(image: int = 224, classes: int = 1000) -> Workload:
    b = Builder()
    cin, size, n = 3, image, 0
    for item in CONFIG_D:
        if item == "M":
            size //= 2
            continue
        n += 1
        b.conv(f"conv{n}", cin, item, 3, size, bias=True, bn=False)
        cin = item
    b.dense("fc6", cin * size * size, 4096)
    b.dense("fc7", 4096, 4096)
    b.dense("fc8", 4096, classes, after=("softmax",))
    return Workload("vgg16", "vgg", tuple(b.layers), f"{image}x{image} image",
                    "Simonyan & Zisserman ICLR 2015 Table 1 (D)",
                    {"params": 138_357_544, "flops": 2 * 15.47e9,
                     "flops_source": "torchvision docs (GFLOPS = GMACs)"})
