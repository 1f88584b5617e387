"""Byte counts for people: SI prefixes, as link and memory speeds are quoted.

``format_bytes(12e3) == "12 kB"``. Sizes carry units rather than thousands separators, and the
decimal symbol is the course language's (1.5 GB in en/zh, 1,5 GB in pt: ``sim.i18n.number``).
"""
from __future__ import annotations

from sim.i18n import number

_UNITS = (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3))


def format_bytes(nbytes: float) -> str:
    """``8 B``, ``1 kB``, ``12 kB``, ``1 MB``, ``1.5 GB`` (three significant digits at most, so
    that a decimal point is never mistaken for a thousands separator)."""
    for unit, scale in _UNITS:
        if abs(nbytes) >= scale:
            return f"{number(nbytes / scale, '.3g')} {unit}"
    return f"{number(nbytes, '.3g')} B"
