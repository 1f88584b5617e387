"""Transfers as fluid flows over link directions, shared max-min fairly (event-driven).

Sharing model. Each direction of each link is a resource of capacity ``bandwidth`` bytes/s.
The flows crossing resources at a given moment get the max-min fair allocation (processor
sharing generalised to paths, computed by progressive filling; Bertsekas & Gallager, "Data
Networks", 2nd ed. 1992, ch. 6, max-min flow control): every flow's rate is its bottleneck
share, and ``k`` equal flows on one link get ``bandwidth / k`` each. Bytes move
through all hops of a route at once (cut-through, not store-and-forward). Whenever a flow starts,
finishes or is killed by a failure, the rates are recomputed (an event-driven fluid model), so
the finish times are exact for piecewise-constant sharing. The latency of a route is paid
*before* the flow joins the network (see ``Simulator.transfers``).

All active flows live in NumPy arrays (finish time at the current rates, rate, owner) plus a
flow-resource incidence list, so a round of 1024 concurrent copies costs a few vectorised
passes, not 1024 Python objects. Three shortcuts keep collectives cheap, each exact: a batch
alone on an idle network reuses the fair rates cached with its route plan; flows that share no
link with the running ones leave their rates alone; and a batch on an idle network is placed
before its latency has elapsed (taken back out if anything happens first).
"""
from __future__ import annotations

import numpy as np

_EMPTY_I = np.empty(0, dtype=np.int64)
_EMPTY_F = np.empty(0, dtype=np.float64)


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

    Each flow is stored by its finish time under the current rates (``fin``); bytes left are
    ``(fin - now) * rate``, materialised only when the rates change. Owners (one per
    ``transfers`` call) receive ``flows_done(local_indices, now)`` and
    ``flows_failed(local_indices, now)`` callbacks.
    """

    def __init__(self, env, capacity: np.ndarray):
        self.env = env
        self.capacity = np.asarray(capacity, dtype=np.float64)
        self.dead = np.zeros(self.capacity.size, dtype=bool)
        self.fin, self.rate = _EMPTY_F, _EMPTY_F
        self.owner, self.local = _EMPTY_I, _EMPTY_I
        self.inc_f, self.inc_r = _EMPTY_I, _EMPTY_I
        self.owners: dict[int, object] = {}
        self._gen = 0
        self._any_dead = False
        self._solo = -1
        self._solo_last = 0.0    # the last finish time of the solo group
        self._early = None       # flows placed before their latency has elapsed (add_later)

    def __len__(self) -> int:
        return self.fin.size

    def remaining(self) -> np.ndarray:
        """Bytes left in each active flow, now."""
        return np.maximum((self.fin - self.env.now) * self.rate, 0.0)

    # ---- public -------------------------------------------------------------------------
    def add(self, owner_id: int, local: np.ndarray, nbytes: np.ndarray, inc_f: np.ndarray,
            inc_r: np.ndarray, cache: dict | None = None) -> None:
        """Start flows now; ``inc_f`` indexes into ``local``/``nbytes``.

        ``cache`` (a dict kept with a cached route plan) lets a batch that starts on an idle
        network reuse its fair rates: they depend on the routes only, not on the sizes.
        """
        self._revert_early()
        self._settle()
        now = self.env.now
        if cache is not None and self.fin.size == 0 and not self._any_dead:
            self._add_solo(owner_id, local, nbytes, inc_f, inc_r, cache, now)
            return
        self._owners_array()
        if self._any_dead:
            doomed = np.zeros(local.size, dtype=bool)
            doomed[inc_f[self.dead[inc_r]]] = True
            if doomed.any():
                self.owners[owner_id].flows_failed(local[doomed], now)
                keep = ~doomed
                local, nbytes, inc_f, inc_r = self._subset(keep, local, nbytes, inc_f, inc_r)
        if not local.size:
            return
        # Max-min rates decompose over groups of flows that share no resource: if the new
        # flows touch no busy resource, nobody else's rate changes and theirs are the cached
        # rates of their plan alone.
        disjoint = cache is not None and not self._busy()[inc_r].any()
        base = self.fin.size
        rem = None if disjoint else self.remaining()
        self.owner = np.concatenate([self.owner, np.full(local.size, owner_id)])
        self.local = np.concatenate([self.local, local])
        self.inc_f = np.concatenate([self.inc_f, inc_f + base])
        self.inc_r = np.concatenate([self.inc_r, inc_r])
        if disjoint:
            rates = cache.get("rates")
            if rates is None:
                rates = cache["rates"] = max_min_rates(self.capacity, inc_f, inc_r, local.size)
            self.fin = np.concatenate([self.fin, now + nbytes / rates])
            self.rate = np.concatenate([self.rate, rates])
            self._gen += 1
            self._schedule()
        else:
            self._replan(np.concatenate([rem, nbytes]))

    def add_later(self, owner_id, local, nbytes, inc_f, inc_r, cache, delay: float) -> bool:
        """Start flows after ``delay`` (their latency), saving the SimPy event that would wait
        for it when the network is idle: they are placed now with a future start, and taken
        back out (exactly: no byte has moved yet) if anything else happens before they start.
        Returns False when this shortcut does not apply (the caller then waits itself)."""
        if self.fin.size or self._any_dead:
            return False
        start = self.env.now + delay
        self._add_solo(owner_id, local, nbytes, inc_f, inc_r, cache, start)
        self._early = (owner_id, local, nbytes, inc_f, inc_r, cache, start)
        return True

    def _add_solo(self, owner_id, local, nbytes, inc_f, inc_r, cache, start) -> None:
        """Flows alone on an idle network: their fair rates are their plan's cached ones."""
        inverse = cache.get("inverse")
        if inverse is None:
            rates = cache.get("rates")
            if rates is None:
                rates = cache["rates"] = max_min_rates(self.capacity, inc_f, inc_r, local.size)
            inverse = cache["inverse"] = 1.0 / rates
        fin = nbytes * inverse
        fin += start
        self.fin = fin
        self.rate = cache["rates"]
        self.owner, self._solo = None, owner_id      # one owner: no per-flow owner array
        self.local, self.inc_f, self.inc_r = local, inc_f, inc_r
        if fin.size <= 32:                  # Python's min/max beat NumPy's on a few values
            values = fin.tolist()
            first, self._solo_last = min(values), max(values)
        else:
            first, self._solo_last = float(fin.min()), float(fin.max())
        self._gen += 1
        self._schedule(first)

    def _revert_early(self) -> None:
        """Something changes before early-placed flows start: take them out and start them
        at their start time the ordinary way."""
        early, self._early = self._early, None
        if early is None or self.env.now >= early[-1]:
            return
        self.fin = self.rate = _EMPTY_F
        self.owner = self.local = self.inc_f = self.inc_r = _EMPTY_I
        self._gen += 1
        self.env.timeout(early[-1] - self.env.now).callbacks.append(
            lambda _e: self.add(*early[:-1]))

    def _busy(self) -> np.ndarray:
        """Resources crossed by at least one active flow (bool per resource)."""
        busy = np.zeros(self.capacity.size, dtype=bool)
        busy[self.inc_r] = True
        return busy

    def fail_resources(self, mask: np.ndarray) -> None:
        """Links went down: kill the flows crossing them, refuse new ones."""
        self._revert_early()
        self._settle()
        self._owners_array()
        self.dead |= mask
        self._any_dead = bool(self.dead.any())
        doomed = np.zeros(self.fin.size, dtype=bool)
        doomed[self.inc_f[mask[self.inc_r]]] = True
        if doomed.any():
            owners, locals_ = self.owner[doomed], self.local[doomed]
            rem = self.remaining()[~doomed]
            self._remove(doomed)
            for oid in np.unique(owners).tolist():
                self.owners[oid].flows_failed(locals_[owners == oid], self.env.now)
            self._replan(rem)

    # ---- internals ----------------------------------------------------------------------
    @staticmethod
    def _subset(keep, local, nbytes, inc_f, inc_r):
        newpos = np.cumsum(keep) - 1
        pk = keep[inc_f]
        return local[keep], nbytes[keep], newpos[inc_f[pk]], inc_r[pk]

    def _settle(self) -> bool:
        """Retire the flows that have finished by now; True if the rates must change."""
        if self.fin.size == 0:
            return False
        now = self.env.now
        # the clock resolves about 1e-16 of now: a finish time within a few ulps is "now"
        limit = now + (now * 1e-13 + 1e-18)
        last = self._solo_last if self.owner is None else self.fin.max()
        if last <= limit:                  # common in collectives: the whole round ends
            owners, locals_ = self.owner, self.local
            self.fin = self.rate = _EMPTY_F
            self.owner = self.local = self.inc_f = self.inc_r = _EMPTY_I
            self._gen += 1
            if owners is None:
                self.owners[self._solo].flows_done(locals_, now)
                return True
        else:
            self._owners_array()
            done = self.fin <= limit
            if not done.any():
                return False
            gone_r = self.inc_r[done[self.inc_f]]
            rem = self.remaining()[~done]
            owners, locals_ = self.owner[done], self.local[done]
            self._remove(done)
            if self._busy()[gone_r].any():      # they shared a link with flows still running
                self._replan(rem)
            else:                               # separate groups: the others keep their rates
                self._gen += 1
                self._schedule()
        if owners[0] == owners[-1] and (owners == owners[0]).all():
            self.owners[int(owners[0])].flows_done(locals_, now)
        else:
            for oid in np.unique(owners).tolist():
                self.owners[oid].flows_done(locals_[owners == oid], now)
        return True

    def _owners_array(self) -> None:
        """Give every flow its owner id (the solo fast path keeps only one)."""
        if self.owner is None:
            self.owner = np.full(self.fin.size, self._solo)

    def _remove(self, gone: np.ndarray) -> None:
        keep = ~gone
        newpos = np.cumsum(keep) - 1
        pk = keep[self.inc_f]
        self.inc_f = newpos[self.inc_f[pk]]
        self.inc_r = self.inc_r[pk]
        self.fin, self.rate = self.fin[keep], self.rate[keep]
        self.owner, self.local = self.owner[keep], self.local[keep]

    def _replan(self, rem: np.ndarray) -> None:
        """Recompute the fair rates for ``rem`` bytes left and schedule the next finish."""
        self._gen += 1
        n = rem.size
        if n == 0:
            self.fin = self.rate = _EMPTY_F
            return
        self.rate = max_min_rates(self.capacity, self.inc_f, self.inc_r, n)
        self.fin = self.env.now + rem / self.rate
        self._schedule()

    def _schedule(self, first: float | None = None) -> None:
        """Wake up at the first finish (``first`` if the caller knows it)."""
        dt = (float(self.fin.min()) if first is None else first) - self.env.now
        gen = self._gen
        self.env.timeout(dt if dt > 0 else 0.0).callbacks.append(lambda _ev: self._on_timer(gen))

    def _on_timer(self, gen: int) -> None:
        if gen == self._gen and not self._settle():
            self._schedule()         # rounding left the first finish a hair ahead: wait for it
