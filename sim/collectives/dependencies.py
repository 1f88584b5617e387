"""Replay a schedule driven by its data dependencies, not by its rounds.

A transfer starts when (1) the chunk it sends has arrived at its source and been reduced there,
and (2) every link direction on its route has finished carrying the transfers scheduled on it
before. Its bytes then occupy those links for ``bytes / rate`` and its last byte arrives one
route latency later: ``arrival = start + bytes / rate + latency``. So each hop pays its own
latency (an NVLink hop 0.6 µs, a network hop 3.7 µs), pipelined algorithms overlap their steps
as NCCL's do, and a link's later transfers queue behind its earlier ones (a FIFO per link
direction, as NCCL's per-connection FIFOs) while their latencies overlap its busy time.

Slices (``schedule.info["slices"] = s``, NCCL's chunk/slice steps, where an algorithm has them):
a chunk moves in ``s`` slices, and a rank forwards a slice as soon as it has it (cut-through):
a transfer may start once the first slice of its chunk is there, and cannot end before the last
slice has arrived plus one slice's time. ``s = 1`` (the default) is store-and-forward, the α-β
model of the closed forms.

Dependencies come from the schedule's data alone, never from a second description of an
algorithm: the buffer is cut at every chunk boundary any transfer uses, and for every rank and
piece the replay keeps the time its latest value is ready. A transfer waits for the pieces it
reads at its source; its arrival (plus ``gamma`` s/B of reduction for a reduce, one reduction at
a time per rank) is when the pieces it writes at its destination are ready. An empty transfer
(a ring segment shorter than one element) reads and writes the piece at its position, so it
still passes the step along as a zero-byte message does in NCCL.

Contention: the rates of a round's transfers are their max-min fair shares of the links when
they all run at once (``sim.des.flows.max_min_rates``, Bertsekas & Gallager), computed once per
(sources, destinations) pattern; across rounds, the per-link FIFO does the queueing. On an
uncontended machine this is exactly the α-β model: the tests check the closed forms at 1 %.
Assumptions, stated: a round's transfers that a dependency pushes apart in time still share
links as if concurrent (pessimistic when they no longer overlap); receive buffers are never
overwritten before they are read (NCCL's FIFOs are deep enough).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from .endpoint import endpoint_gap as _endpoint_gap, link_gaps, serialise
from .buffer_pieces import Pieces
from .schedule import Schedule

_PATTERNS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@dataclass
class Timing:
    """When every transfer of a replay began and ended: ``begin[i]``/``end[i]`` are arrays for
    round ``i`` (``begin``: its bytes start leaving the source; ``end``: its last byte has
    arrived, and been reduced when ``gamma`` is given), ``total`` the all-reduce's seconds."""

    total: float
    begin: list
    end: list


class _Pattern:
    """Routing of one round's (src, dst) pairs on one machine, and their fair rates together.

    ``hops`` is an ``(h, n)`` table of the first ``h`` link directions of every transfer, ``h``
    the shortest route's hop count, and ``deeper`` the transfers with longer routes and their
    further hops (padded with a resource that is always free); ``crossings`` groups the used link directions by how many
    transfers cross each, ``(links, (k, R) table of their k transfers)``, so a round reads the
    links' free times and writes them back with a few gathers and column maxima (the short axis
    first: NumPy reduces it element-wise across long rows, which is fast) and no padding.
    """

    __slots__ = ("latency", "rate", "seconds_per_byte", "hops", "deeper", "crossings", "gap",
                 "net", "net_src", "net_dst", "net_gap", "net_senders_distinct",
                 "net_receivers_distinct")

    def __init__(self, routes: "_Routes", src, dst, capacity, gaps):
        from sim.des.flows import max_min_rates

        ids = routes.ids(src, dst)
        table = routes.table()
        hops = table[ids]                               # (n, widest route), padded with idle
        real = hops != routes.idle
        real[:, 0] = True                               # a route to itself: the idle resource
        n = ids.size
        inc_f = np.repeat(np.arange(n), real.sum(axis=1))
        inc_r = hops[real]
        self.latency = routes.latency()[ids]
        self.rate = max_min_rates(capacity, inc_f, inc_r, n) if n else np.zeros(0)
        self.seconds_per_byte = 1.0 / self.rate
        depth = real.sum(axis=1)
        short = int(depth.min(initial=1))
        self.hops = np.ascontiguousarray(hops[:, :short].T)
        longer = np.flatnonzero(depth > short)
        self.deeper = (longer, np.ascontiguousarray(hops[longer, short:].T)) if longer.size else None
        busy = inc_r != routes.idle
        self.crossings = _crossings(inc_r[busy], inc_f[busy])
        self.gap = gaps[hops].max(axis=1) if n else np.zeros(0)     # LogGP g (sim.collectives.endpoint)
        self.net = np.flatnonzero(self.gap > 0)
        self.net_src, self.net_dst, self.net_gap = src[self.net], dst[self.net], self.gap[self.net]
        self.net_senders_distinct = _distinct(self.net_src)
        self.net_receivers_distinct = _distinct(self.net_dst)


def _distinct(ranks: np.ndarray) -> bool:
    return bool(np.bincount(ranks).max(initial=0) <= 1) if ranks.size else True


class _Routes:
    """Every (src, dst) rank pair met so far on one machine: its route's link directions and
    latency, in arrays. Pairs are found by binary search on their sorted keys ``src·p + dst``;
    only a pair never met before is routed (in Python, once)."""

    def __init__(self, machine, devs, idle: int):
        self.machine, self.devs, self.idle, self.p = machine, devs, idle, len(devs)
        self.keys = np.zeros(0, dtype=np.int64)        # sorted pair keys
        self.slot = np.zeros(0, dtype=np.int64)        # their rows in the tables
        self.lat: list = []
        self._table = self._lat = None

    def ids(self, src, dst) -> np.ndarray:
        keys = src * self.p + dst
        pos = np.searchsorted(self.keys, keys)
        known = self.keys[np.minimum(pos, self.keys.size - 1)] == keys if self.keys.size else \
            np.zeros(keys.size, dtype=bool)
        if not known.all():
            new = np.unique(keys[~known])
            first = len(self.lat)
            rows = []
            for key in new.tolist():
                s, d = divmod(key, self.p)
                hops = self.machine.route(self.devs[s], self.devs[d]) if s != d else []
                rows.append([2 * link.index + way for link, way in hops] or [self.idle])
                self.lat.append(sum(link.latency for link, _ in hops))
            self._grow(rows)
            keys_all = np.concatenate([self.keys, new])
            slots = np.concatenate([self.slot, np.arange(first, first + new.size)])
            order = np.argsort(keys_all, kind="stable")
            self.keys, self.slot = keys_all[order], slots[order]
            pos = np.searchsorted(self.keys, keys)
        return self.slot[pos]

    def _grow(self, rows: list) -> None:
        """Append new routes to the ``(pairs, widest route)`` table (padded with idle)."""
        width = max(len(r) for r in rows)
        block = np.full((len(rows), width), self.idle, dtype=np.int64)
        for i, r in enumerate(rows):
            block[i, :len(r)] = r
        old = self._table
        if old is None:
            self._table = block
            return
        if old.shape[1] != width:
            w = max(width, old.shape[1])
            old = np.pad(old, ((0, 0), (0, w - old.shape[1])), constant_values=self.idle)
            block = np.pad(block, ((0, 0), (0, w - width)), constant_values=self.idle)
        self._table = np.concatenate([old, block])

    def table(self) -> np.ndarray:
        return self._table

    def latency(self) -> np.ndarray:
        if self._lat is None or self._lat.size != len(self.lat):
            self._lat = np.asarray(self.lat, dtype=np.float64)
        return self._lat


def _crossings(link: np.ndarray, transfer: np.ndarray) -> list:
    """``[(links, (k, len(links)) table)]``: the link directions crossed by exactly ``k`` transfers
    and, column by column, those transfers, for each ``k`` that occurs."""
    order = np.argsort(link, kind="stable")
    link, transfer = link[order], transfer[order]
    used, first, counts = np.unique(link, return_index=True, return_counts=True)
    out = []
    for k in np.unique(counts).tolist():
        links = np.flatnonzero(counts == k)
        out.append((used[links], transfer[first[links] + np.arange(k)[:, None]]))
    return out


def _patterns(machine) -> dict:
    try:
        return _PATTERNS.setdefault(machine, {})
    except TypeError:
        return {}


def replay_timing(schedule: Schedule, machine, nbytes: float, devs: list, *,
                  gamma: float = 0.0, keep: bool = False) -> Timing:
    """Replay ``schedule`` (``nbytes`` per rank) on ``machine`` with ranks on ``devs``."""
    p = schedule.p
    scale = float(nbytes) / schedule.length if schedule.length else 0.0
    capacity = np.append(np.repeat([link.bandwidth for link in machine.links], 2), np.inf)
    free = np.zeros(capacity.size)
    reduce_free = np.zeros(p)
    slices = max(1, int(schedule.info.get("slices", 1)))
    pieces = Pieces(p, schedule.length, schedule, tables=2 if slices > 1 else 1)
    memo = _patterns(machine)
    dev_key = tuple(d.name for d in devs)
    gaps = memo.get("gaps")
    if gaps is None:
        gaps = memo["gaps"] = link_gaps(machine)
    send_last, recv_last = np.full(p, -np.inf), np.full(p, -np.inf)
    routes = memo.get(("routes", dev_key))
    if routes is None:
        routes = memo[("routes", dev_key)] = _Routes(machine, devs, capacity.size - 1)
    begins, ends = [], []
    pat = last_src = last_dst = None
    for rnd in schedule.rounds:
        if not len(rnd):
            if keep:
                begins.append(np.zeros(0))
                ends.append(np.zeros(0))
            continue
        src, dst = rnd.src, rnd.dst
        if src is not last_src or dst is not last_dst:     # builders share a repeated pattern
            key = (dev_key, src.tobytes(), dst.tobytes())
            pat = memo.get(key)
            if pat is None:
                pat = memo[key] = _Pattern(routes, src, dst, capacity, gaps)
            last_src, last_dst = src, dst
        lo, hi = pieces.locate(rnd.start, rnd.stop)
        sizes = rnd.sizes * scale
        send = sizes * pat.seconds_per_byte              # seconds the bytes occupy the links
        full = pieces.read(src, lo, hi)
        links_free = free[pat.hops].max(axis=0)
        if pat.deeper is not None:
            longer, further = pat.deeper
            links_free[longer] = np.maximum(links_free[longer], free[further].max(axis=0))
        if slices > 1:           # cut-through by slices: forward a slice as soon as it is here
            begin = np.maximum(pieces.read(src, lo, hi, 1), links_free)
            net = _endpoint_gap(pat, begin, send_last)
            done = np.maximum(begin + send, full + send / slices)
        else:                    # store and forward: the whole chunk first
            begin = np.maximum(full, links_free)
            net = _endpoint_gap(pat, begin, send_last)
            done = begin + send
        for links, crossing in pat.crossings:
            last = done[crossing[0]] if len(crossing) == 1 else done[crossing].max(axis=0)
            free[links] = np.maximum(free[links], last)
        ready = done + pat.latency                       # the last byte arrives
        if net is not None:
            ready[net] = serialise(ready[net], pat.net_dst, pat.net_gap, recv_last,
                                   pat.net_receivers_distinct)
        red = rnd.reduce
        if gamma and red.any():
            d = dst[red]
            work = np.bincount(d, weights=sizes[red], minlength=p)
            ready[red] = np.maximum(ready[red], reduce_free[d]) + gamma * work[d]
            np.maximum.at(reduce_free, d, ready[red])
        pieces.write(dst, lo, hi, ready)
        if slices > 1:
            first = begin + pat.latency + send / slices
            if gamma and red.any():
                first[red] += gamma * sizes[red] / slices
            pieces.write(dst, lo, hi, first, 1)
        if keep:
            begins.append(begin)
            ends.append(ready)
    finish = float(pieces.ready.max()) if schedule.rounds else 0.0   # every arrival is written there
    return Timing(finish, begins, ends)
