"""Stragglers and backup workers in a plan's step time: the order statistics of
``sim.des.order_statistics`` (E[X_(N:N+b)] for a synchronous step with b backup workers, E[X] for an
asynchronous worker), here under the names the planner uses."""
from __future__ import annotations

from sim.des.order_statistics import NONE, async_factor, expected_order, harmonic, sync_factor

__all__ = ["NONE", "async_factor", "expected_order", "harmonic", "sync_factor"]
