"""A task's way in to the fabric: connect, prove the secret, say hello, with retries and a deadline.

The fabric may not be listening yet (a task started by hand before its chief) or may be too busy
to answer the handshake in time (a large launch on two cores): each attempt has
``ATTEMPT_SECONDS`` to connect and authenticate, and the task tries again until
``SIM_LAUNCH_CONNECT_TIMEOUT`` seconds (default ``CONNECT_SECONDS``) have passed; then it stops
with an error that says which task never reached which address. A wrong secret is not retried.
"""
from __future__ import annotations

import os
import socket
import time
from multiprocessing import AuthenticationError
from multiprocessing.connection import Connection, answer_challenge, deliver_challenge

from sim.fabric import protocol
from sim.fabric.door import set_io_timeout

CONNECT_SECONDS = 60.0
ATTEMPT_SECONDS = 10.0     # longer than the fabric's own handshake deadline (door.py)
ENV_CONNECT_TIMEOUT = "SIM_LAUNCH_CONNECT_TIMEOUT"


class FabricUnreachable(ConnectionError):
    """No fabric answered at the address before the deadline."""


def connect_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get(ENV_CONNECT_TIMEOUT, CONNECT_SECONDS)))
    except ValueError:
        return CONNECT_SECONDS


def dial(address, secret: bytes, hello: dict, seconds=None):
    """``(connection, welcome header)`` from the fabric at ``address`` (host, port)."""
    deadline = time.monotonic() + (connect_seconds() if seconds is None else seconds)
    pause, last = 0.02, None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise FabricUnreachable(f"{hello.get('task')}: no fabric answered at "
                                    f"{address[0]}:{address[1]} ({last})")
        try:
            return _attempt(address, secret, hello, min(left, ATTEMPT_SECONDS))
        except AuthenticationError:
            raise
        except (OSError, EOFError) as e:       # not listening yet, busy, or reset: again
            last = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
        pause = min(pause * 2, 0.5)


def _attempt(address, secret, hello, seconds):
    sock = socket.create_connection(address, timeout=seconds)
    sock.settimeout(None)
    set_io_timeout(sock, seconds)
    conn = Connection(sock.detach())
    try:
        answer_challenge(conn, secret)
        deliver_challenge(conn, secret)
        # The peer proved it holds the secret: it is the fabric. Its welcome may be slow on a
        # loaded machine; giving up here would leave it serving a task that went away.
        set_io_timeout(conn.fileno(), 0)
        protocol.nodelay(conn)
        protocol.send(conn, hello)
        header, _ = protocol.recv(conn)
    except BaseException:
        conn.close()
        raise
    return conn, header
