"""TensorBoard event files, written by hand in their documented format.

A file is a sequence of TFRecord records (length, masked CRC32C of the length, the bytes, masked
CRC32C of the bytes: ``sim.data.tfrecord.frame``); each record is one serialized ``Event``
protocol buffer (tensorflow/core/util/event.proto):

    Event   { double wall_time = 1; int64 step = 2; string file_version = 3; Summary summary = 5; }
    Summary { repeated Value value = 1; }
    Value   { string tag = 1; float simple_value = 2; }

The first event carries ``file_version = "brain.Event:2"``; scalars use ``simple_value``, which
TensorBoard shows under Scalars. ``wall_time`` is the simulated clock, so the files are the same
on every run. Protocol-buffer encoding: a key ``(field << 3) | wire_type``, varints for integers,
little-endian 8/4 bytes for double/float, a length prefix for strings and messages.
"""
from __future__ import annotations

import os
import struct

from sim.data.tfrecord import frame


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _bytes_field(field: int, data: bytes) -> bytes:
    return _key(field, 2) + _varint(len(data)) + data


def scalar_summary(values: dict) -> bytes:
    """A serialized ``Summary`` with one ``simple_value`` per tag."""
    out = b""
    for tag, value in values.items():
        v = _bytes_field(1, str(tag).encode()) + _key(2, 5) + struct.pack("<f", float(value))
        out += _bytes_field(1, v)
    return out


def event(wall_time: float, step: int = 0, file_version: str | None = None,
          summary: bytes | None = None) -> bytes:
    """A serialized ``Event``."""
    out = _key(1, 1) + struct.pack("<d", float(wall_time))
    if step:
        out += _key(2, 0) + _varint(int(step))
    if file_version is not None:
        out += _bytes_field(3, file_version.encode())
    if summary is not None:
        out += _bytes_field(5, summary)
    return out


class EventFileWriter:
    """Appends events to ``<logdir>/events.out.tfevents.<time>.sim.v2`` (a new file per writer)."""

    def __init__(self, logdir: str, wall_time: float = 0.0):
        os.makedirs(logdir, exist_ok=True)
        base = os.path.join(logdir, f"events.out.tfevents.{int(wall_time):010d}.sim")
        n = 0
        while os.path.exists(f"{base}.{n}.v2"):
            n += 1
        self.path = f"{base}.{n}.v2"
        with open(self.path, "wb") as f:
            f.write(frame(event(wall_time, file_version="brain.Event:2")))

    def add_scalars(self, values: dict, step: int, wall_time: float) -> None:
        with open(self.path, "ab") as f:
            f.write(frame(event(wall_time, step, summary=scalar_summary(values))))
