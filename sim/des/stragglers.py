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
