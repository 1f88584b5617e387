"""One ``Simulator.transfers`` call: its cached route plan and its bookkeeping.

A ``Plan`` turns a list of (src, dst) pairs into NumPy arrays once (routes, hop latencies,
flow-resource incidence, grouped by latency); a collective that repeats the same pairs every
round reuses it. A ``TransferBatch`` counts the batch's flows down and fires its SimPy event.
"""
from __future__ import annotations

import numpy as np

from sim.des import failures as F
from sim.i18n import t


class Plan:
    """Routing of one list of (src, dst) pairs, cached: collectives repeat the same pairs."""

    def __init__(self, machine, pairs):
        self.src, self.dst, lat, rows = [], [], [], []
        for s, d in pairs:
            sd, dd = machine.device(s), machine.device(d)
            hops = machine.route(sd, dd)
            self.src.append(sd)
            self.dst.append(dd)
            lat.append(sum(link.latency for link, _ in hops))
            rows.append([2 * link.index + direction for link, direction in hops])
        self.n = len(pairs)
        lat = np.asarray(lat, dtype=np.float64)
        self.zero = np.array([i for i, r in enumerate(rows) if not r], dtype=np.int64)
        self.groups = []
        routed = np.array([i for i, r in enumerate(rows) if r], dtype=np.int64)
        for value in np.unique(lat[routed]) if routed.size else []:
            local = routed[lat[routed] == value]
            inc_f = np.concatenate([np.full(len(rows[i]), k) for k, i in enumerate(local)])
            inc_r = np.concatenate([rows[i] for i in local]).astype(np.int64)
            self.groups.append((float(value), local, inc_f.astype(np.int64), inc_r, {}))
        self.wheres = [f"{machine.display_name(a)}→{machine.display_name(b)}"
                       for a, b in zip(self.src, self.dst)]
        self.devices = set(self.src) | set(self.dst)
        # one group of every flow, with a latency: the simulator's fast path (add_later)
        self.solo = (len(self.groups) == 1 and self.groups[0][0] > 0
                     and self.groups[0][1].size == self.n)


class TransferBatch:
    """One ``transfers`` call: counts its flows down and fires its event when all are done."""

    def __init__(self, sim, oid, event, record, n):
        self.sim, self.oid, self.event, self.record, self.left = sim, oid, event, record, n
        self.failed = False
        self.skip = None       # bool per flow: failed before starting (dead endpoint)

    def flows_done(self, local, now):
        self.record.mark_end(local, now)
        self._count(len(local))

    def flows_failed(self, local, now):
        rec = self.record
        rec.mark_end(local, now)
        if rec.status is None:
            rec.status = ["ok"] * rec.nbytes.size
        for i in np.atleast_1d(local).tolist():
            rec.status[i] = "failed"
        if not self.failed:
            self.failed = True
            self.event.fail(F.DeviceFailure(t("des.transfer_failed", label=rec.name or "transfer",
                                                time=f"{now:.9g}")))
        self._count(len(local))

    def _count(self, k):
        self.left -= k
        if self.left == 0:
            self.sim._network.owners.pop(self.oid, None)
            if not self.failed:
                self.event.succeed()
