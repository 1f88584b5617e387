"""The fabric's door: a loopback listener that no stranger can hold shut.

``multiprocessing.connection.Listener`` listens with a backlog of 1 and runs the HMAC handshake
in the one thread that accepts, with no time limit: a launch of many tasks overflowed the queue
(a client whose last ACK was dropped waited forever for the challenge) and one silent connection
stopped every other task from joining. Here the socket listens with a real backlog, the accept
thread only accepts, and each connection gets its own thread for the handshake (the same
``multiprocessing.connection`` HMAC challenge, both ways) and the task's first message, within
``HANDSHAKE_SECONDS``: a connection still unfinished then is shut down. Closing the door wakes
the accept thread through a pipe (no connection to itself) and shuts every unfinished handshake.
"""
from __future__ import annotations

import os
import selectors
import socket
import struct
import threading
import time
from multiprocessing.connection import Connection, answer_challenge, deliver_challenge

from sim.fabric.refusals import Refusals, SlowFailure, Throttle

HANDSHAKE_SECONDS = 5.0    # a connection must authenticate and say hello within this time
BACKLOG = 4096             # the kernel caps it at net.core.somaxconn
MAX_UNFINISHED = 256       # handshakes in flight at once; a new one beyond shuts the oldest


def set_io_timeout(sock_or_fd, seconds) -> None:
    """SO_RCVTIMEO/SO_SNDTIMEO: a blocking read or write on this socket gives up after
    ``seconds`` (0: never), leaving the descriptor blocking as ``Connection`` needs it."""
    s = sock_or_fd if isinstance(sock_or_fd, socket.socket) else socket.socket(fileno=os.dup(sock_or_fd))
    value = struct.pack("ll", int(seconds), int((seconds - int(seconds)) * 1e6))
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, value)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, value)
    finally:
        if s is not sock_or_fd:
            s.close()


class Door:
    """Listen on ``(host, port)``; call ``admit(connection, first_message)`` in a thread of its
    own for each connection that proved it holds ``secret``. ``first(connection)`` reads that
    first message (it too must come within the handshake's time)."""

    def __init__(self, secret: bytes, admit, first, host="127.0.0.1", port=0,
                 handshake_seconds=HANDSHAKE_SECONDS, say=None):
        self._secret, self._admit, self._first = secret, admit, first
        self._throttle, self.refusals = Throttle(), Refusals(say)   # wrong answers (refusals.py)
        self._seconds = handshake_seconds
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            sock.listen(BACKLOG)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        self._sock = sock
        self.address = sock.getsockname()[:2]
        self._wake_read, self._wake_write = os.pipe()
        self._lock = threading.Lock()
        self._unfinished: dict = {}          # socket -> deadline (monotonic)
        self._closed = False
        self._thread = threading.Thread(target=self._accept_loop, name="fabric-accept", daemon=True)
        self.threads: list = []              # the connections' threads (handshake, then serving)

    def start(self):
        if self._thread.ident is None:
            self._thread.start()

    def _accept_loop(self):
        selector = selectors.DefaultSelector()
        selector.register(self._sock, selectors.EVENT_READ)
        selector.register(self._wake_read, selectors.EVENT_READ)
        try:
            while not self._closed:
                for key, _ in selector.select(timeout=0.25):
                    if key.fileobj is self._sock:
                        self._accept_all()
                self._shut_late()
        finally:
            selector.close()

    def _accept_all(self):
        while not self._closed:
            try:
                conn, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:         # ECONNABORTED, EMFILE...: try again on the next wake-up
                return
            conn.setblocking(True)
            with self._lock:
                oldest = None
                if len(self._unfinished) >= MAX_UNFINISHED:   # a flood: the oldest goes first
                    oldest = min(self._unfinished, key=self._unfinished.get)
                    del self._unfinished[oldest]
                self._unfinished[conn] = time.monotonic() + self._seconds
            if oldest is not None:
                _shut(oldest)
            t = threading.Thread(target=self._handshake, args=(conn,), name="fabric-task", daemon=True)
            self.threads = [x for x in self.threads if x.is_alive()] + [t]
            t.start()

    def _shut_late(self):
        now = time.monotonic()
        with self._lock:
            late = [s for s, deadline in self._unfinished.items() if deadline <= now]
            for s in late:
                del self._unfinished[s]
        for s in late:
            _shut(s)

    def _handshake(self, sock):
        conn = None
        try:
            set_io_timeout(sock, self._seconds)
            conn = Connection(os.dup(sock.fileno()))     # sock stays ours to shut when late
            deliver_challenge(SlowFailure(conn, self._throttle, lambda: self.refusals.refused(sock)),
                              self._secret)
            answer_challenge(conn, self._secret)
            first = self._first(conn)
        except Exception:    # AuthenticationError (named by refusals.py), EOFError, OSError...
            first = None
        with self._lock:
            in_time = self._unfinished.pop(sock, None) is not None and not self._closed
        sock.close()
        if first is None or not in_time:
            if conn is not None:
                conn.close()
            return
        set_io_timeout(conn.fileno(), 0)                  # a task may compute for hours
        self._admit(conn, first)

    def close(self):
        """Stop accepting and shut every unfinished handshake; admitted connections stay open."""
        if self._closed:
            return
        self._closed = True
        try:
            os.write(self._wake_write, b"x")
        except OSError:
            pass
        if self._thread.ident is not None:
            self._thread.join(timeout=2)
        self._sock.close()
        with self._lock:
            late, self._unfinished = list(self._unfinished), {}
        for s in late:
            _shut(s)
        for fd in (self._wake_read, self._wake_write):
            os.close(fd)


def _shut(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)       # wakes the handshake thread blocked reading it
    except OSError:
        pass
