"""Wrong answers at the fabric's door: slowed down, and named where the learner reads.

Without a limit a local process guessed a 4-digit secret in 4 s (2,000 guesses a second) and
joined the cluster. ``Throttle`` lets the door tell a wrong answer ``#FAILURE#`` only at one
per ``FAILURE_SECONDS`` in all, however many connections guess at once, so guessing runs at
that pace; a right answer is never delayed. ``Refusals`` names each refused peer (its address,
and the process and user behind it when /proc shows them) in one line, at most one line per
``REPORT_SECONDS`` with the count so far, in the launch's output or a hand-started host's.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from multiprocessing.connection import FAILURE

from sim.i18n import t

FAILURE_SECONDS = 0.5
REPORT_SECONDS = 5.0


class Throttle:
    """One wrong answer per FAILURE_SECONDS, for every connection together."""

    def __init__(self, seconds=FAILURE_SECONDS):
        self._seconds, self._next, self._lock = seconds, 0.0, threading.Lock()

    def wait(self, limit=4.0) -> bool:
        """Sleep until this failure's turn; False (no turn taken) when it is more than ``limit``
        s away: that guess is cut without an answer, its thread never sleeps long."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next)
            if slot - now > limit:
                return False
            self._next = slot + self._seconds
        time.sleep(max(0.0, slot - now))
        return True


class SlowFailure:
    """The connection as ``deliver_challenge`` uses it, its ``#FAILURE#`` held by the throttle."""

    def __init__(self, conn, throttle, on_failure=None):
        self._conn, self._throttle, self._on_failure = conn, throttle, on_failure

    def send_bytes(self, data):
        if bytes(data) == FAILURE:
            if self._on_failure is not None:
                self._on_failure()              # while the peer is still connected: named
            if not self._throttle.wait():
                raise EOFError("too many wrong answers at once: cut without one")
        self._conn.send_bytes(data)

    def recv_bytes(self, maxlength=None):
        return self._conn.recv_bytes(maxlength)


def peer_name(sock) -> str:
    """``127.0.0.1:41234 (pid 812, python3, uid 1001)``, as much as this machine shows."""
    try:
        host, port = sock.getpeername()[:2]
        door = sock.getsockname()[1]
    except OSError:
        return "?"
    who = _process_of(port, door)
    return f"{host}:{port}" + (f" ({who})" if who else "")


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1], 16)


def socket_row(rows, port, door):
    """(inode, uid) of the open socket from ``port`` to ``door`` among /proc/net/tcp's rows, not
    a closed connection's TIME_WAIT row (inode 0) that once had the same ports; None if absent."""
    for row in rows:
        if len(row) > 9 and row[9] != "0" and _port(row[1]) == port and _port(row[2]) == door:
            return row[9], row[7]
    return None


def _process_of(port, door) -> str:
    """The process holding that socket: the one with its inode among its open files."""
    found = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                found = socket_row([line.split() for line in f.readlines()[1:]], port, door)
        except OSError:
            continue
        if found:
            break
    if not found:
        return ""
    inode, uid = found
    target = f"socket:[{inode}]"
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == target
                   for fd in os.listdir(f"/proc/{pid}/fd")):
                with open(f"/proc/{pid}/comm") as f:
                    return f"pid {pid}, {f.read().strip()}, uid {uid}"
        except OSError:
            continue
    return f"uid {uid}"


class Refusals:
    """Count the refused peers and say so (``say(text)``; stderr by default)."""

    def __init__(self, say=None):
        self._say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self._lock, self.count, self._last = threading.Lock(), 0, -REPORT_SECONDS

    def refused(self, sock):
        with self._lock:
            self.count += 1
            now = time.monotonic()
            if now - self._last < REPORT_SECONDS:
                return
            self._last, count = now, self.count
        self._say(t("fabric.refused_peer", peer=peer_name(sock), count=count,
                    seconds=f"{FAILURE_SECONDS:g}"))
