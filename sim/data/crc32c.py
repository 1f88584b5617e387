"""CRC-32C (Castagnoli) and TFRecord's masked form, written here because no crc32c library
is among the project's dependencies (numpy, simpy, matplotlib).

Reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF (RFC 3720 §B.4).
Slicing-by-8: eight 256-entry tables let one loop step consume eight bytes.
TFRecord stores ``mask(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8`` (mod 2**32) so a
CRC of data that itself holds CRCs is not degenerate (TensorFlow's crc32c.h).
"""
from __future__ import annotations

import struct

_POLY = 0x82F63B78
_MASK_DELTA = 0xA282EAD8


def _tables():
    first = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ _POLY if crc & 1 else crc >> 1
        first.append(crc)
    tables = [first]
    for _ in range(7):
        prev = tables[-1]
        tables.append([(prev[i] >> 8) ^ first[prev[i] & 0xFF] for i in range(256)])
    return tables


_T = _tables()


def crc32c(data: bytes, crc: int = 0) -> int:
    """CRC-32C of ``data``; pass a previous result as ``crc`` to continue it."""
    t0, t1, t2, t3, t4, t5, t6, t7 = _T
    crc ^= 0xFFFFFFFF
    data = bytes(data)
    n8 = len(data) // 8 * 8
    for lo, hi in struct.iter_unpack("<II", data[:n8]):
        lo ^= crc
        crc = (t7[lo & 0xFF] ^ t6[(lo >> 8) & 0xFF] ^ t5[(lo >> 16) & 0xFF] ^ t4[lo >> 24]
               ^ t3[hi & 0xFF] ^ t2[(hi >> 8) & 0xFF] ^ t1[(hi >> 16) & 0xFF] ^ t0[hi >> 24])
    for b in data[n8:]:
        crc = (crc >> 8) ^ t0[(crc ^ b) & 0xFF]
    return crc ^ 0xFFFFFFFF


def mask(crc: int) -> int:
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """The checksum a TFRecord stores after its length and after its data."""
    return mask(crc32c(data))
