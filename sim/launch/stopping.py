"""How a launch ends its tasks: by themselves, then SIGTERM, then SIGKILL, per process group;
then what they detached; then their last output, all without a fixed wait per task (a helper
that holds a task's output pipe open cost 2 s per task before: 16 s for 8 workers)."""
from __future__ import annotations

import signal
import subprocess
import time

OUTPUT_WAIT = 1.0       # s, for all tasks together: the last lines after the processes ended


def stop(running, grace=0.0, stop_orphans=None):
    """Let the tasks stop by themselves for ``grace`` s, then SIGTERM, then SIGKILL, per group;
    then the helpers they detached (``stop_orphans``); then their last output, within one
    shared OUTPUT_WAIT (a pipe a helper still holds never costs a fixed wait per task)."""
    deadline = time.monotonic() + grace
    while grace and time.monotonic() < deadline and any(x.proc.poll() is None for x in running):
        time.sleep(0.02)
    for sig, wait in ((signal.SIGTERM, 1.0), (signal.SIGKILL, 5.0)):
        for x in running:
            x.signal_group(sig)     # the group too: anything a script started
        deadline = time.monotonic() + wait
        for x in running:
            try:
                x.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        if all(x.proc.poll() is not None for x in running):
            break
    for x in running:
        x.signal_group(signal.SIGKILL)
    if stop_orphans is not None:
        stop_orphans()
    deadline = time.monotonic() + OUTPUT_WAIT
    for x in running:
        x.join_output(max(0.0, deadline - time.monotonic()))


def kill_now(running, stop_orphans=None):
    """The second Ctrl-C: SIGKILL every task's group and its helpers, no waiting for output."""
    for x in running:
        x.signal_group(signal.SIGKILL)
        try:
            x.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
    if stop_orphans is not None:
        stop_orphans(grace=0.0)
