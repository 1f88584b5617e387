"""Parse TensorFlow device names: full (``/job:worker/replica:0/task:1/device:GPU:0``),
legacy short (``/gpu:0``, ``/task:1/cpu:0``) and bare (``GPU:0``).

TensorFlow lets a program name a device partially and fills in the rest; we do the same and
pick the one device that matches every field given.
"""
from __future__ import annotations

import re

_PART = re.compile(
    r"^(?:job:(?P<job>[A-Za-z0-9_-]+)|replica:(?P<replica>\d+)|task:(?P<task>\d+)"
    r"|device:(?P<dtype>[A-Za-z]+):(?P<dindex>\d+)|(?P<ltype>[A-Za-z]+):(?P<lindex>\d+))$"
)


def parse(name: str) -> dict | None:
    """Fields of a device name (``job``, ``replica``, ``task``, ``type``, ``index``), or None."""
    text = name.strip()
    if not text:
        return None
    fields: dict = {}
    for part in (p for p in text.split("/") if p):
        m = _PART.match(part)
        if not m:
            return None
        g = m.groupdict()
        if g["job"] is not None:
            fields["job"] = g["job"]
        elif g["replica"] is not None:
            fields["replica"] = int(g["replica"])
        elif g["task"] is not None:
            fields["task"] = int(g["task"])
        else:
            dtype = (g["dtype"] or g["ltype"]).upper()
            if dtype not in ("GPU", "CPU", "TPU"):
                return None
            fields["type"] = dtype
            fields["index"] = int(g["dindex"] or g["lindex"])
    return fields if "type" in fields else None


def matches(device, fields: dict) -> bool:
    return (device.device_type == fields["type"] and device.index == fields["index"]
            and fields.get("job", device.job) == device.job
            and fields.get("task", device.host) == device.host
            and fields.get("replica", 0) == 0)
