"""Ports on 127.0.0.1 for tasks that will listen on them later, chosen where nothing else lands.

A port found free by binding port 0 comes from the system's ephemeral range, and the system
hands that same range out on its own: to every outgoing connection (a Jupyter kernel's, a task
talking to its peers) and to every other program's ``bind(0)``. Between the moment a port is
found free and the moment a task listens on it, any of those may take it, and the task fails
with "Address already in use" (seen in CI: a lesson's Slurm job, under a parallel test run).

So the ports are drawn at random from below the ephemeral range, where the system never
assigns a port by itself, and each is checked free by binding it. Where the ephemeral range
leaves too little room below it, the system's own choice (port 0) is used, as before.
"""
from __future__ import annotations

import random
import socket

LOWEST = 20000          # above the registered services that cluster around 1024-10000
_MIN_ROOM = 2000        # fewer candidate ports than this: fall back to the system's choice
_TRIES = 200

_draw = random.SystemRandom()     # not seeded on purpose: two runs at once must not draw alike


def ephemeral_range(path="/proc/sys/net/ipv4/ip_local_port_range"):
    """(low, high) of the ports the system assigns by itself; IANA's 49152-65535 where unknown."""
    try:
        with open(path) as f:
            low, high = (int(word) for word in f.read().split()[:2])
        return low, high
    except (OSError, ValueError):
        return 49152, 65535


def _candidates():
    low, _ = ephemeral_range()
    top = min(low, 65536)
    return range(LOWEST, top) if top - LOWEST >= _MIN_ROOM else None


def _bindable(port) -> bool:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def _system_port() -> int:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def free_ports(count):
    """``count`` distinct TCP ports free on 127.0.0.1 now, outside the ephemeral range."""
    candidates, found = _candidates(), []
    for _ in range(_TRIES * max(count, 1)):
        if len(found) == count:
            return found
        port = _draw.choice(candidates) if candidates else _system_port()
        if port not in found and _bindable(port):
            found.append(port)
    if len(found) == count:
        return found
    raise RuntimeError(f"found only {len(found)} of {count} free ports on 127.0.0.1")


def consecutive_free_ports(count):
    """A port base with ``count`` ports from it free now (a Slurm job's PORT_BASE + task)."""
    candidates = _candidates()
    for _ in range(_TRIES):
        base = _draw.choice(candidates[:len(candidates) - count]) if candidates else _system_port()
        if base + count <= 65536 and all(_bindable(p) for p in range(base, base + count)):
            return base
    raise RuntimeError(f"no run of {count} free ports found on 127.0.0.1")
