"""TFRecord's masked CRC-32C.

The checksum itself comes from the ``crc32c`` package (CRC-32C, Castagnoli, hardware-accelerated
where the CPU has it). TFRecord stores ``mask(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8``
(mod 2**32) so that a CRC of data that itself holds CRCs is not degenerate (TensorFlow's
crc32c.h).
"""
from __future__ import annotations

from crc32c import crc32c

_MASK_DELTA = 0xA282EAD8


def mask(crc: int) -> int:
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """The checksum a TFRecord stores after its length and after its data."""
    return mask(crc32c(bytes(data)))
