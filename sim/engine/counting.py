"""FLOP and byte accounting: what one replica's ops cost, so a device can turn it into time.

Every op calls ``add(flops, nbytes)``; it costs one truthiness test when no counter is active.
The distribute layer wraps a replica's step in ``with counting() as c:`` and gives ``c.flops``
and ``c.bytes`` to the simulated device. Counters nest: an op adds to every active counter.

Conventions (the usual roofline ones): an elementwise op costs one FLOP per output element,
a matmul ``2*m*n*k``, a reduction one per input element; bytes are inputs read plus output
written. The backward pass of an op costs its forward cost once per input that needs a
gradient (a matmul's two gradients are two matmuls of the same size).
"""
from __future__ import annotations

from contextlib import contextmanager

_active: list = []
# Memory trackers of running steps (sim.distribute.memory.StepMemory), innermost last: variables
# report when they are read or written, tapes when they start a backward pass.
_memory: list = []


class Counter:
    """Running totals: ``flops``, ``bytes`` and ``ops`` (number of op calls)."""

    __slots__ = ("flops", "bytes", "ops")

    def __init__(self):
        self.flops, self.bytes, self.ops = 0, 0, 0

    def __repr__(self):
        return f"Counter(flops={self.flops}, bytes={self.bytes}, ops={self.ops})"


def add(flops, nbytes) -> None:
    """Add one op's cost to every active counter."""
    for c in _active:
        c.flops += int(flops)
        c.bytes += int(nbytes)
        c.ops += 1


@contextmanager
def counting():
    """Count the FLOPs and bytes of every op run inside the block: ``with counting() as c:``."""
    c = Counter()
    _active.append(c)
    try:
        yield c
    finally:
        _active.remove(c)
