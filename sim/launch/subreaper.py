"""Nothing a launch started outlives it: the CLI's launcher adopts its tasks' orphans.

Stopping a task's process group stops what its script started in that group, but not a child
the script put in a session or group of its own (``setsid``, ``start_new_session=True``).
Linux lets a process adopt its descendants' orphans (``PR_SET_CHILD_SUBREAPER``): once a task
is gone, its children become the launcher's, and ``stop_orphans()`` stops them (SIGTERM, then
SIGKILL) and reaps them. Only ``python -m sim launch`` does this, in its own process: a
notebook's kernel is not made to adopt anything.
"""
from __future__ import annotations

import os
import signal
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans() -> bool:
    """Make this process the reaper of its descendants' orphans (Linux); False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children() -> list:
    me, found = os.getpid(), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            found.append(int(pid))
    return found


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return


def stop_orphans(grace=1.0, rounds=5) -> None:
    """Stop and reap every child this process still has (call it once the tasks are done)."""
    for _ in range(rounds):            # an orphan's own children are adopted in turn
        _reap()
        children = _children()
        if not children:
            return
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
            for pid in children:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                _reap()
                if not any(os.path.exists(f"/proc/{pid}") and pid in _children() for pid in children):
                    break
                time.sleep(0.02)
