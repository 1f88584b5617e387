"""The discrete-event simulator: compute on devices and transfers over links, on SimPy.

Compute: a device runs one task at a time, first come first served (one stream, like a GPU's
default stream), for ``seconds`` or ``flops / peak_flops[dtype]``, times a straggler factor.
Transfers: ``latency`` (sum of the hop latencies of the route) and then the bytes flow at the
route's max-min fair share of bandwidth (see ``sim.des.flows``). So one transfer of ``S``
bytes over one idle link takes exactly ``latency + S / bandwidth``, and ``k`` equal transfers
sharing that link take ``latency + k * S / bandwidth``.
"""
from __future__ import annotations

import math

import numpy as np
import simpy

from sim.des import failures as F
from sim.des.batch import Plan, TransferBatch
from sim.des.flows import FlowNetwork
from sim.des.stragglers import Stragglers
from sim.des.trace import Trace, _Batch
from sim.i18n import t


class Simulator:
    """A machine plus a SimPy environment: ``compute``, ``transfer``, ``transfers``, ``run``.

    ``stragglers``: ``{device name or "*": factor or Slowdown}``; ``failures``: a list of
    ``Failure(at, device=...)`` / ``Failure(at, host=...)``. Every random draw comes from
    ``seed``: the same seed gives the same trace. Build the machine completely before making
    its simulator (the simulator sizes its link table once). ``route_plans``: a dict shared by
    several simulators of the same machine, so each list of pairs is routed once among them.
    """

    def __init__(self, machine, seed: int = 0, stragglers=None, failures=None, env=None,
                 route_plans: dict | None = None):
        from sim.hardware import as_machine
        self.machine = machine = as_machine(machine)
        self.seed = seed
        self.env = env if env is not None else simpy.Environment()
        self.trace = Trace(clock=lambda: self.env.now)
        cap = np.repeat([link.bandwidth for link in machine.links], 2).astype(np.float64)
        self._network = FlowNetwork(self.env, cap)
        self._plans: dict = {} if route_plans is None else route_plans
        self._next_owner = 0
        self._slots: dict = {}
        self.stragglers = Stragglers(machine, stragglers, seed)
        self._straggling = bool(self.stragglers)
        self._planned = self.trace._planned.append
        self._add_batch = self.trace.add_batch
        self._dead: set = set()
        self._may_fail: set = set()
        self._pending: dict = {}
        for failure in failures or []:
            self.add_failure(failure)

    # ---- time -----------------------------------------------------------------------------
    @property
    def now(self) -> float:
        return self.env.now

    def run(self, until=None):
        return self.env.run(until=until)

    def process(self, generator):
        return self.env.process(generator)

    def timeout(self, delay: float, value=None):
        return self.env.timeout(delay, value)

    # ---- compute --------------------------------------------------------------------------
    def compute(self, device, seconds: float | None = None, flops: float | None = None,
                dtype: str = "float32", label: str = ""):
        """Run a task on ``device`` (FIFO behind earlier tasks); returns a SimPy event."""
        try:
            slot = self._slots[device]          # [device, display name, free at, can fail]
        except (KeyError, TypeError):
            slot = self._slot(device)
        dev = slot[0]
        if flops is None and type(seconds) is float and 0.0 <= seconds < math.inf:
            duration = seconds                  # the common cases, checked cheaply
        elif seconds is None and type(flops) is float and 0.0 <= flops < math.inf \
                and dev.peak_flops.get(dtype):
            duration = flops / dev.peak_flops[dtype]
        else:
            duration = self._duration(dev, seconds, flops, dtype)
        if self._straggling:
            duration *= self.stragglers.factor(dev)
        now = self.env._now                 # the property costs a call on every task
        start = slot[2] if slot[2] > now else now
        end = start + duration
        slot[2] = end
        if not slot[3]:        # fast path: nothing can fail it, so its times are certain
            self._planned((label, slot[1], start, end))
            return self.env.timeout(end - now)
        where = slot[1]
        if dev in self._dead:
            return self._failed_now("compute", label, where, dev)
        ev = self.env.event()
        task = [ev, start, end, label, where, True]
        self._pending.setdefault(dev, []).append(task)
        self.env.timeout(end - now).callbacks.append(lambda _e: self._compute_done(dev, task))
        return ev

    def _slot(self, device) -> list:
        """Per-device compute state, shared by every name of the device."""
        dev = self.machine.device(device)
        slot = self._slots.get(dev)
        if slot is None:
            slot = self._slots[dev] = [dev, self.machine.display_name(dev), 0.0,
                                       dev in self._may_fail]
        try:
            self._slots[device] = slot
        except TypeError:
            pass
        return slot

    def _duration(self, dev, seconds, flops, dtype) -> float:
        """The slow path of ``compute``: check the arguments, then seconds or flops / peak."""
        if (seconds is None) == (flops is None):
            raise ValueError(t("des.compute_args"))
        if seconds is not None:
            if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0):
                raise ValueError(t("des.bad_seconds", value=seconds))
            return float(seconds)
        if not (isinstance(flops, (int, float)) and math.isfinite(flops) and flops >= 0):
            raise ValueError(t("des.bad_flops", value=flops))
        peak = dev.peak_flops.get(dtype)
        if not peak:
            raise ValueError(t("des.unknown_dtype", dtype=dtype, device=dev.name,
                               known=", ".join(sorted(dev.peak_flops)) or "-"))
        return float(flops) / peak

    def _compute_done(self, dev, task) -> None:
        ev, start, end, label, where, alive = task
        if alive:
            task[5] = False
            self._pending[dev].remove(task)
            self.trace.add("compute", label, where, start, end)
            ev.succeed()

    def _failed_now(self, kind, label, where, what):
        ev = self.env.event()
        now = self.env.now
        self.trace.add(kind, label, where, now, now, "failed")
        ev.fail(F.DeviceFailure(t("des.device_down", what=str(what), time=f"{now:.9g}")))
        return ev

    # ---- transfers ------------------------------------------------------------------------
    def transfer(self, src, dst, nbytes: float, label: str = ""):
        """Copy ``nbytes`` from ``src`` to ``dst`` over the route; returns a SimPy event."""
        return self.transfers([(src, dst, nbytes)], label)

    def transfers(self, items, label: str = ""):
        """Start all ``(src, dst, nbytes)`` copies now; one SimPy event fires when all are done.

        The fast path of collectives: routes are cached per list of pairs and the flows of the
        whole batch are shared and advanced with NumPy (``sim.des.flows``).
        """
        if not isinstance(items, list):
            items = list(items)
        if items:
            srcs, dsts, sizes = zip(*items)
        else:
            srcs = dsts = sizes = ()
        key = (srcs, dsts)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = Plan(self.machine, list(zip(srcs, dsts)))
        lowest = min(sizes) if sizes else 0.0
        if not (lowest >= 0 and math.isfinite(sum(sizes))):
            bad = next(it for it in items if not (math.isfinite(it[2]) and it[2] >= 0))
            raise ValueError(t("des.bad_nbytes", value=bad[2], src=bad[0], dst=bad[1]))
        nbytes = np.array(sizes, dtype=np.float64)
        env = self.env
        now = env._now                     # the property costs a call on every transfer batch
        event = simpy.Event(env)
        record = _Batch(label, plan.wheres, now, None, nbytes)
        self._add_batch(record)
        oid = self._next_owner
        self._next_owner += 1
        batch = TransferBatch(self, oid, event, record, plan.n)
        network = self._network
        network.owners[oid] = batch
        dead = self._dead
        if dead and plan.devices & dead:    # copies from or to a dead device
            lost = np.array([a in dead or b in dead for a, b in zip(plan.src, plan.dst)])
            batch.skip = lost
            batch.flows_failed(np.flatnonzero(lost), now)
        if plan.zero.size:
            batch.flows_done(plan.zero, now)
        some_empty = lowest == 0
        groups = plan.groups
        if plan.solo and not some_empty and not dead:
            latency, local, inc_f, inc_r, cache = groups[0]
            if network.add_later(oid, local, nbytes, inc_f, inc_r, cache, latency):
                return event
        for latency, local, inc_f, inc_r, cache in groups:
            args = (oid, local, nbytes if local.size == plan.n else nbytes[local], inc_f, inc_r,
                    cache, some_empty)
            if latency == 0:
                self._start(*args)
            else:
                self.env.timeout(latency).callbacks.append(lambda _e, a=args: self._start(*a))
        if plan.n == 0:
            event.succeed()
        return event

    def _start(self, oid, local, sizes, inc_f, inc_r, cache, some_empty) -> None:
        """The latency of a group of flows is paid: put their bytes on the wires."""
        batch = self._network.owners.get(oid)
        if batch is None:
            return
        if batch.skip is not None:          # already failed: their device was dead
            keep = ~batch.skip[local]
            if not keep.all():
                local, sizes, inc_f, inc_r = FlowNetwork._subset(keep, local, sizes, inc_f, inc_r)
                cache = None
                if not local.size:
                    return
        if some_empty:
            empty = sizes == 0
            if empty.any():                # nothing to send: done once the latency is paid
                batch.flows_done(local[empty], self.env.now)
                if empty.all():
                    return
                local, sizes, inc_f, inc_r = FlowNetwork._subset(~empty, local, sizes, inc_f,
                                                                 inc_r)
                cache = None
        self._network.add(oid, local, sizes, inc_f, inc_r, cache)

    # ---- failures -------------------------------------------------------------------------
    def add_failure(self, failure: F.Failure) -> None:
        """Schedule ``failure``; compute already submitted on a fast path is not affected."""
        devs, nodes = F.failed_nodes(self.machine, failure)
        self._may_fail.update(devs)
        for dev in devs:
            self._slot(dev)[3] = True
        delay = max(0.0, failure.at - self.env.now)
        self.env.timeout(delay).callbacks.append(lambda _e: self._fail(failure, devs, nodes))

    def _fail(self, failure, devs, nodes) -> None:
        now = self.env.now
        what = (self.machine.display_name(devs[0]) if failure.device is not None
                else f"host {failure.host}")          # the trace row: the same in every language
        said = what if failure.device is not None else t("des.host_name", n=failure.host)
        self.trace.add("failure", "down", what, now, now, "failed")
        self._dead.update(devs)
        for dev in devs:
            for task in list(self._pending.get(dev, [])):
                ev, start, end, label, where, alive = task
                if alive:
                    task[5] = False
                    self.trace.add("compute", label, where, min(start, now), now, "failed")
                    ev.fail(F.DeviceFailure(t("des.device_down", what=said, time=f"{now:.9g}")))
            self._pending[dev] = []
        mask = np.zeros(2 * len(self.machine.links), dtype=bool)
        for i, link in enumerate(self.machine.links):
            if link.a in nodes or link.b in nodes:
                mask[2 * i:2 * i + 2] = True
        self._network.fail_resources(mask)
