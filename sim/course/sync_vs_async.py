"""A toy model of synchronous vs asynchronous data-parallel training time (lesson 00).

Each worker's step takes a seeded random time (a base time times a log-normal slowdown,
so some steps straggle). Synchronous training waits for the slowest worker at every step
(an all-reduce is a barrier); asynchronous training lets each worker push its update as soon
as it is done (parameter servers), so nobody waits but updates use stale weights.
The full discrete-event versions live in sim.des and sim.distribute; this one is the idea.
"""
from __future__ import annotations

import numpy as np


def step_times(workers: int, steps: int, base: float = 0.1, spread: float = 0.3,
               seed: int = 0) -> np.ndarray:
    """Seconds each worker needs for each of its steps: shape (steps, workers)."""
    if workers < 1 or steps < 1:
        raise ValueError(f"need at least one worker and one step, got workers={workers}, steps={steps}")
    rng = np.random.default_rng(seed)
    return base * rng.lognormal(mean=0.0, sigma=spread, size=(steps, workers))


def synchronous_time(times: np.ndarray) -> float:
    """Every step lasts as long as its slowest worker."""
    return float(times.max(axis=1).sum())


def asynchronous_updates_by(times: np.ndarray, deadline: float) -> int:
    """How many updates all workers together push before ``deadline`` when nobody waits."""
    finish = np.cumsum(times, axis=0)
    return int((finish <= deadline).sum())
