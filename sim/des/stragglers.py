"""Stragglers: seeded per-device slowdowns of compute tasks.

A real cluster has a slow GPU (thermal throttling, a noisy neighbour, a bad PCIe slot);
synchronous training waits for it at every all-reduce. A ``Slowdown`` multiplies the duration
of each compute task on the devices it names:

    duration x factor x exp(sigma * z) x (hiccup_factor with probability hiccup_prob)

with ``z ~ N(0, 1)``. Each device draws from its own generator seeded by
``(seed, device position)``, so a device's slowdowns do not depend on what other devices do:
the same seed gives the same trace.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.i18n import t


@dataclass(frozen=True)
class Slowdown:
    """How much slower a device computes: constant ``factor``, lognormal jitter ``sigma``,
    and rare ``hiccup_factor`` stalls with probability ``hiccup_prob`` per task."""

    factor: float = 1.0
    sigma: float = 0.0
    hiccup_prob: float = 0.0
    hiccup_factor: float = 1.0

    def __post_init__(self):
        ok = (self.factor > 0 and self.sigma >= 0 and 0 <= self.hiccup_prob <= 1
              and self.hiccup_factor > 0 and all(math.isfinite(v) for v in
              (self.factor, self.sigma, self.hiccup_prob, self.hiccup_factor)))
        if not ok:
            raise ValueError(t("des.bad_slowdown", value=repr(self)))

    @property
    def random(self) -> bool:
        return self.sigma > 0 or 0 < self.hiccup_prob

    def sample(self, rng: np.random.Generator) -> float:
        f = self.factor
        if self.sigma > 0:
            f *= math.exp(self.sigma * rng.standard_normal())
        if self.hiccup_prob > 0 and rng.random() < self.hiccup_prob:
            f *= self.hiccup_factor
        return f


class Stragglers:
    """Slowdowns by device: ``{"/gpu:3": 2.0, "*": Slowdown(sigma=0.1)}`` ("*" = every device;
    a device named explicitly uses its own entry). A number means ``Slowdown(factor=number)``;
    a bare ``Slowdown`` applies to every device."""

    def __init__(self, machine, spec=None, seed: int = 0):
        if isinstance(spec, Slowdown):          # one slowdown for every device
            spec = {"*": spec}
        self.seed = seed
        self.default: Slowdown | None = None
        self.by_device: dict = {}
        for key, value in dict(spec or {}).items():
            slow = value if isinstance(value, Slowdown) else Slowdown(factor=float(value))
            if key == "*":
                self.default = slow
            else:
                self.by_device[machine.device(key)] = slow
        self._position = {d: i for i, d in enumerate(machine.devices)}
        self._rngs: dict = {}

    def __bool__(self) -> bool:
        return self.default is not None or bool(self.by_device)

    def factor(self, device) -> float:
        slow = self.by_device.get(device, self.default)
        if slow is None:
            return 1.0
        if not slow.random:
            return slow.factor
        rng = self._rngs.get(device)
        if rng is None:
            rng = self._rngs[device] = np.random.default_rng([self.seed, self._position[device]])
        return slow.sample(rng)


@dataclass(frozen=True)
class ComputeTime:
    """A seeded distribution of one step's compute time (in simulated time units or seconds):

        fixed (or slow with probability slow_prob) + Exp(mean=exponential)

    ``ComputeTime(fixed=1)`` is constant, ``ComputeTime(exponential=1)`` exponential,
    ``ComputeTime(fixed=1, exponential=1)`` shifted exponential, and
    ``ComputeTime(fixed=1, slow=10, slow_prob=0.05, exponential=0.1)`` the rare 10x straggler of
    scaling_and_staleness.md E6. ``scale`` makes one worker uniformly slower (heterogeneous
    workers). Each worker draws from its own generator seeded by ``(seed, worker)``.
    """

    fixed: float = 0.0
    exponential: float = 0.0
    slow: float = 0.0
    slow_prob: float = 0.0

    def __post_init__(self):
        ok = (all(math.isfinite(v) and v >= 0 for v in
                  (self.fixed, self.exponential, self.slow, self.slow_prob))
              and self.slow_prob <= 1 and self.fixed + self.exponential + self.slow > 0)
        if not ok:
            raise ValueError(t("ps.bad_compute_time", value=repr(self)))

    @property
    def mean(self) -> float:
        return (1 - self.slow_prob) * self.fixed + self.slow_prob * self.slow + self.exponential

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent compute times."""
        out = np.full(size, float(self.fixed))
        if self.slow_prob > 0:
            out[rng.random(size) < self.slow_prob] = self.slow
        if self.exponential > 0:
            out += rng.exponential(self.exponential, size)
        return out

    def stream(self, seed: int, worker: int, scale: float = 1.0, chunk: int = 4096):
        """An endless iterator of this worker's compute times (drawn ``chunk`` at a time)."""
        rng = np.random.default_rng([seed, worker])
        while True:
            yield from (self.draw(rng, chunk) * scale).tolist()
