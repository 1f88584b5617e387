"""Transfers as fluid flows over link directions, shared max-min fairly (event-driven).

Sharing model. Each direction of each link is a resource of capacity ``bandwidth`` bytes/s.
The flows crossing resources at a given moment get the max-min fair allocation (processor
sharing generalised to paths, computed by progressive filling): every flow's rate is its
bottleneck share, and ``k`` equal flows on one link get ``bandwidth / k`` each. Bytes move
through all hops of a route at once (cut-through, not store-and-forward). Whenever a flow starts,
finishes or is killed by a failure, the rates are recomputed (an event-driven fluid model), so
the finish times are exact for piecewise-constant sharing. The latency of a route is paid
*before* the flow joins the network (see ``Simulator.transfers``).

All active flows live in NumPy arrays (remaining bytes, rate, owner) plus a flow-resource
incidence list, so a round of 1024 concurrent copies costs a few vectorised passes, not 1024
Python objects.
"""
from __future__ import annotations

import numpy as np

_EMPTY_I = np.empty(0, dtype=np.int64)
_EMPTY_F = np.empty(0, dtype=np.float64)
DONE_REL = 1e-9  # a flow with less than this fraction of its bytes left has finished


def max_min_rates(capacity: np.ndarray, inc_f: np.ndarray, inc_r: np.ndarray, n: int) -> np.ndarray:
    """Max-min fair rates of ``n`` flows; flow ``inc_f[i]`` crosses resource ``inc_r[i]``.

    Progressive filling: the resource with the smallest fair share (capacity left / unfrozen
    flows) fixes the rate of the flows crossing it; remove them, repeat.
    """
    rate = np.zeros(n)
    if n == 0:
        return rate
    R = capacity.size
    cap_left = capacity.astype(np.float64, copy=True)
    unfrozen = np.ones(n, dtype=bool)
    live = np.ones(inc_f.size, dtype=bool)
    while True:
        cnt = np.bincount(inc_r[live], minlength=R)
        used = np.flatnonzero(cnt)
        share = cap_left[used] / cnt[used]
        level = share.min()
        is_bottleneck = np.zeros(R, dtype=bool)
        is_bottleneck[used[share <= level * (1 + 1e-12)]] = True
        newly = np.zeros(n, dtype=bool)
        newly[inc_f[live & is_bottleneck[inc_r]]] = True
        rate[newly] = level
        unfrozen &= ~newly
        if not unfrozen.any():
            return rate
        frozen_pairs = newly[inc_f]
        cap_left -= np.bincount(inc_r[frozen_pairs], minlength=R) * level
        live &= ~frozen_pairs


class FlowNetwork:
    """The flows in flight on one machine, advanced in SimPy time.

    Owners (one per ``transfers`` call) receive ``flows_done(local_indices, now)`` and
    ``flows_failed(local_indices, now)`` callbacks.
    """

    def __init__(self, env, capacity: np.ndarray):
        self.env = env
        self.capacity = np.asarray(capacity, dtype=np.float64)
        self.dead = np.zeros(self.capacity.size, dtype=bool)
        self.rem, self.size, self.rate = _EMPTY_F, _EMPTY_F, _EMPTY_F
        self.owner, self.local = _EMPTY_I, _EMPTY_I
        self.inc_f, self.inc_r = _EMPTY_I, _EMPTY_I
        self.owners: dict[int, object] = {}
        self._t = 0.0
        self._gen = 0

    def __len__(self) -> int:
        return self.rem.size

    # ---- public -------------------------------------------------------------------------
    def add(self, owner_id: int, local: np.ndarray, nbytes: np.ndarray, inc_f: np.ndarray,
            inc_r: np.ndarray) -> None:
        """Start flows now; ``inc_f`` indexes into ``local``/``nbytes``."""
        self._settle()
        if self.dead.any():
            doomed = np.zeros(local.size, dtype=bool)
            doomed[inc_f[self.dead[inc_r]]] = True
            if doomed.any():
                self.owners[owner_id].flows_failed(local[doomed], self.env.now)
                keep = ~doomed
                local, nbytes, inc_f, inc_r = self._subset(keep, local, nbytes, inc_f, inc_r)
        if local.size:
            base = self.rem.size
            self.rem = np.concatenate([self.rem, nbytes])
            self.size = np.concatenate([self.size, nbytes])
            self.owner = np.concatenate([self.owner, np.full(local.size, owner_id)])
            self.local = np.concatenate([self.local, local])
            self.inc_f = np.concatenate([self.inc_f, inc_f + base])
            self.inc_r = np.concatenate([self.inc_r, inc_r])
        self._replan()

    def fail_resources(self, mask: np.ndarray) -> None:
        """Links went down: kill the flows crossing them, refuse new ones."""
        self._settle()
        self.dead |= mask
        doomed = np.zeros(self.rem.size, dtype=bool)
        doomed[self.inc_f[mask[self.inc_r]]] = True
        if doomed.any():
            owners, locals_ = self.owner[doomed], self.local[doomed]
            self._remove(doomed)
            for oid in np.unique(owners).tolist():
                self.owners[oid].flows_failed(locals_[owners == oid], self.env.now)
        self._replan()

    # ---- internals ----------------------------------------------------------------------
    @staticmethod
    def _subset(keep, local, nbytes, inc_f, inc_r):
        newpos = np.cumsum(keep) - 1
        pk = keep[inc_f]
        return local[keep], nbytes[keep], newpos[inc_f[pk]], inc_r[pk]

    def _settle(self) -> None:
        """Advance every flow to now and retire the finished ones."""
        now = self.env.now
        if self.rem.size == 0:
            self._t = now
            return
        if now > self._t:
            self.rem = self.rem - self.rate * (now - self._t)
            self._t = now
        # finished: almost no bytes left, or less time left than the clock can resolve now
        # (without the second test a 1-byte flow at 1e12 B/s could re-arm a timer forever)
        slack = now * 1e-13 + 1e-18
        done = (self.rem <= DONE_REL * self.size) | (self.rem <= self.rate * slack)
        if done.any():
            owners, locals_ = self.owner[done], self.local[done]
            self._remove(done)
            if owners.size and (owners == owners[0]).all():
                self.owners[int(owners[0])].flows_done(locals_, now)
            else:
                for oid in np.unique(owners).tolist():
                    self.owners[oid].flows_done(locals_[owners == oid], now)

    def _remove(self, gone: np.ndarray) -> None:
        keep = ~gone
        newpos = np.cumsum(keep) - 1
        pk = keep[self.inc_f]
        self.inc_f = newpos[self.inc_f[pk]]
        self.inc_r = self.inc_r[pk]
        self.rem, self.size, self.rate = self.rem[keep], self.size[keep], self.rate[keep]
        self.owner, self.local = self.owner[keep], self.local[keep]

    def _replan(self) -> None:
        """Recompute the fair rates and schedule the next finish."""
        self._gen += 1
        n = self.rem.size
        if n == 0:
            return
        self.rate = max_min_rates(self.capacity, self.inc_f, self.inc_r, n)
        dt = float(np.min(self.rem / self.rate))
        gen = self._gen
        self.env.timeout(max(dt, 0.0)).callbacks.append(lambda _ev: self._on_timer(gen))

    def _on_timer(self, gen: int) -> None:
        if gen != self._gen:
            return           # rates changed since this finish was predicted
        self._settle()
        self._replan()
