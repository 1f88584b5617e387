"""Inception V3, built module by module (including the auxiliary classifier used in training).

Architecture: Szegedy et al., "Rethinking the Inception Architecture for Computer Vision", CVPR
2016 (Table 1 and Figures 5-7), as torchvision's ``inception.py`` writes it: every convolution is
bias-free and followed by batch norm; stem 32-32-64, pool, 80-192, pool; Mixed_5b-5d
(InceptionA with 32/64/64 pool features), Mixed_6a (grid reduction), Mixed_6b-6e (InceptionC,
factorised 7x7 with 128/160/160/192 channels), the auxiliary classifier on the 17x17 map,
Mixed_7a, Mixed_7b-7c (InceptionE), fc 2048 -> 1000. Input 299x299x3.

Published figures: 27,161,264 parameters with the auxiliary classifier (torchvision docs,
``Inception_V3_Weights.IMAGENET1K_V1``; Keras lists 23,851,784 without it, with the moving
statistics) and 5.71 GFLOPS as multiply-accumulates (torchvision docs; the paper says "about 5
billion multiply-adds").
"""
from __future__ import annotations

from .base import Builder, Workload, conv_out


def _a(b, name, cin, pool, s):
    b.conv(name + ".branch1x1", cin, 64, 1, s)
    b.conv(name + ".branch5x5_1", cin, 48, 1, s)
    b.conv(name + ".branch5x5_2", 48, 64, 5, s)
    b.conv(name + ".branch3x3dbl_1", cin, 64, 1, s)
    b.conv(name + ".branch3x3dbl_2", 64, 96, 3, s)
    b.conv(name + ".branch3x3dbl_3", 96, 96, 3, s)
    b.conv(name + ".branch_pool", cin, pool, 1, s)
    return 64 + 64 + 96 + pool


def _b(b, name, cin, s):
    out = conv_out(s, 3, 2)
    b.conv(name + ".branch3x3", cin, 384, 3, out, stride=2)
    b.conv(name + ".branch3x3dbl_1", cin, 64, 1, s)
    b.conv(name + ".branch3x3dbl_2", 64, 96, 3, s)
    b.conv(name + ".branch3x3dbl_3", 96, 96, 3, out, stride=2)
    return 384 + 96 + cin, out


def _c(b, name, cin, c7, s):
    b.conv(name + ".branch1x1", cin, 192, 1, s)
    b.conv(name + ".branch7x7_1", cin, c7, 1, s)
    b.conv(name + ".branch7x7_2", c7, c7, (1, 7), s)
    b.conv(name + ".branch7x7_3", c7, 192, (7, 1), s)
    b.conv(name + ".branch7x7dbl_1", cin, c7, 1, s)
    for i, (cout, k) in enumerate(((c7, (7, 1)), (c7, (1, 7)), (c7, (7, 1)), (192, (1, 7))), 2):
        b.conv(name + f".branch7x7dbl_{i}", c7, cout, k, s)
    b.conv(name + ".branch_pool", cin, 192, 1, s)
    return 768


def _d(b, name, cin, s):
    out = conv_out(s, 3, 2)
    b.conv(name + ".branch3x3_1", cin, 192, 1, s)
    b.conv(name + ".branch3x3_2", 192, 320, 3, out, stride=2)
    b.conv(name + ".branch7x7x3_1", cin, 192, 1, s)
    b.conv(name + ".branch7x7x3_2", 192, 192, (1, 7), s)
    b.conv(name + ".branch7x7x3_3", 192, 192, (7, 1), s)
    b.conv(name + ".branch7x7x3_4", 192, 192, 3, out, stride=2)
    return 320 + 192 + cin, out


def _e(b, name, cin, s):
    b.conv(name + ".branch1x1", cin, 320, 1, s)
    b.conv(name + ".branch3x3_1", cin, 384, 1, s)
    b.conv(name + ".branch3x3_2a", 384, 384, (1, 3), s)
    b.conv(name + ".branch3x3_2b", 384, 384, (3, 1), s)
    b.conv(name + ".branch3x3dbl_1", cin, 448, 1, s)
    b.conv(name + ".branch3x3dbl_2", 448, 384, 3, s)
    b.conv(name + ".branch3x3dbl_3a", 384, 384, (1, 3), s)
    b.conv(name + ".branch3x3dbl_3b", 384, 384, (3, 1), s)
    b.conv(name + ".branch_pool", cin, 192, 1, s)
    return 320 + 768 + 768 + 192


def inception_v3(image: int = 299, classes: int = 1000) -> Workload:
    b = Builder()
    s = conv_out(image, 3, 2)
    b.conv("Conv2d_1a_3x3", 3, 32, 3, s, stride=2)
    s = conv_out(s, 3)
    b.conv("Conv2d_2a_3x3", 32, 32, 3, s)
    b.conv("Conv2d_2b_3x3", 32, 64, 3, s)                 # padding 1
    s = conv_out(s, 3, 2)
    b.conv("Conv2d_3b_1x1", 64, 80, 1, s)
    s = conv_out(s, 3)
    b.conv("Conv2d_4a_3x3", 80, 192, 3, s)
    s = conv_out(s, 3, 2)
    c = 192
    for name, pool in (("Mixed_5b", 32), ("Mixed_5c", 64), ("Mixed_5d", 64)):
        c = _a(b, name, c, pool, s)
    c, s = _b(b, "Mixed_6a", c, s)
    for name, c7 in (("Mixed_6b", 128), ("Mixed_6c", 160), ("Mixed_6d", 160), ("Mixed_6e", 192)):
        c = _c(b, name, c, c7, s)
    aux = conv_out(s, 5, 3)                               # 5x5 average pool, stride 3
    b.conv("AuxLogits.conv0", c, 128, 1, aux)
    b.conv("AuxLogits.conv1", 128, 768, 5, conv_out(aux, 5))
    b.dense("AuxLogits.fc", 768, classes, after=("softmax",))
    c, s = _d(b, "Mixed_7a", c, s)
    for name in ("Mixed_7b", "Mixed_7c"):
        c = _e(b, name, c, s)
    b.dense("fc", c, classes, after=("softmax",))
    return Workload("inception_v3", "inception", tuple(b.layers), f"{image}x{image} image",
                    "Szegedy et al. CVPR 2016; torchvision inception.py",
                    {"params": 27_161_264, "flops": 2 * 5.71e9,
                     "flops_source": "torchvision docs (GFLOPS = GMACs)"})
