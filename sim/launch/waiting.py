"""Who a stalled launch waits for, and the line that says so while it waits.

A launch whose task hangs looks the same from outside as one that computes: nothing is printed.
The fabric knows more (``Fabric.waiting()``): a round that some tasks reached and one did not
names the hung task (the others are only waiting for it), and so does a task that never joined
while the others did. ``Watch`` prints one line once nothing has happened for ``NOTICE_SECONDS``
(no collective finished, no output), then again every ``REPEAT_SECONDS``, naming that task and
how to stop the launch; ``hung`` gives the same diagnosis to the launcher's timeout.
"""
from __future__ import annotations

import os
import time

from sim.i18n import t
from sim.fabric.messages import notice_seconds, task_label  # noqa: F401 (launch_options's)

NOTICE_SECONDS = 10.0      # SIM_LAUNCH_NOTICE_SECONDS overrides it
REPEAT_SECONDS = 60.0


def hung(fabric, running):
    """``(task name, where in words or None)``: the task the others wait for, or else the first
    still running."""
    alive = [x.name for x in running if x.proc.poll() is None]
    if not alive:
        return None, None
    waiting = getattr(fabric, "waiting", None)
    if waiting is not None:
        joined, rounds = waiting()
        for seq in sorted(rounds):
            missing = [name for name in fabric.group if name in alive and name not in rounds[seq]]
            if rounds[seq] and missing:
                return missing[0], t("fabric.where_collective", seq=seq)
        if joined:
            missing = [name for name in fabric.group if name in alive and name not in joined]
            if missing:
                return missing[0], t("fabric.where_not_joined")
    return alive[0], None


class Watch:
    """Call ``tick()`` from the supervisor's loop: it prints the waiting line when due."""

    def __init__(self, fabric, running, say, timeout=None, notice=None):
        self._fabric, self._running, self._say = fabric, running, say
        if notice is None:
            notice = notice_seconds(NOTICE_SECONDS)
        self._timeout, self._notice = timeout, notice
        self._seen = None
        self._quiet_since = time.monotonic()
        self._next = self._quiet_since + self._notice

    def tick(self):
        now = time.monotonic()
        seen = (len(self._fabric.collectives), sum(len(x.lines) for x in self._running))
        if seen != self._seen:
            self._seen, self._quiet_since, self._next = seen, now, now + self._notice
            return
        if now < self._next:
            return
        self._next = now + REPEAT_SECONDS
        name, where = hung(self._fabric, self._running)
        if name is None:
            return
        how = (t("fabric.how_stop_timeout", seconds=self._timeout) if self._timeout is not None
               else t("fabric.how_stop"))
        seconds = round(now - self._quiet_since)
        if where is None:            # every task is in the cluster and none is waited for
            self._say(t("fabric.still_running", seconds=seconds, how=how))
        else:
            self._say(t("fabric.still_waiting", task=task_label(name), seconds=seconds,
                        where=f" ({where})", how=how))
