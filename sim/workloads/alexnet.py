"""AlexNet, in the single-tower form every framework ships.

Architecture: Krizhevsky, "One weird trick for parallelizing convolutional neural networks",
arXiv 1404.5997, 2014 (the one-GPU AlexNet of 64/192/384/256/256 channels that torchvision's
``alexnet.py`` implements): conv 11x11/4 (pad 2), max pool 3/2, conv 5x5 (pad 2), pool, three
3x3 convs, pool to 6x6, then 9216 -> 4096 -> 4096 -> 1000; every layer has a bias. Input
224x224x3. (The 2012 paper's two-tower network has about 61 M parameters too, collectives.md §7.)

Published figures: 61,100,840 parameters and 0.71 GFLOPS as multiply-accumulates (torchvision
docs, ``AlexNet_Weights.IMAGENET1K_V1``).
"""
from __future__ import annotations

from .base import Builder, Workload, conv_out


def alexnet(image: int = 224, classes: int = 1000) -> Workload:
    b = Builder()
    size = conv_out(image, 11, 4, 2)
    b.conv("conv1", 3, 64, 11, size, bias=True, bn=False, stride=4)
    size = conv_out(size, 3, 2)
    b.conv("conv2", 64, 192, 5, size, bias=True, bn=False)
    size = conv_out(size, 3, 2)
    b.conv("conv3", 192, 384, 3, size, bias=True, bn=False)
    b.conv("conv4", 384, 256, 3, size, bias=True, bn=False)
    b.conv("conv5", 256, 256, 3, size, bias=True, bn=False)
    b.dense("fc6", 256 * 6 * 6, 4096)
    b.dense("fc7", 4096, 4096)
    b.dense("fc8", 4096, classes, after=("softmax",))
    return Workload("alexnet", "alexnet", tuple(b.layers), f"{image}x{image} image",
                    "Krizhevsky arXiv 1404.5997; torchvision alexnet.py",
                    {"params": 61_100_840, "flops": 2 * 0.71e9,
                     "flops_source": "torchvision docs (GFLOPS = GMACs)"})
