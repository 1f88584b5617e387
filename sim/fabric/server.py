"""The fabric: where the launched tasks meet, on 127.0.0.1 only.

It runs in the launcher's process (threads). Each task of the collective group (chief and
workers, in TensorFlow's ``id_in_cluster`` order) connects with the launch's secret and says
hello; from then on every collective is a round: the fabric waits until every member has sent
its contribution for the round, checks they called the same thing, computes the result (the
``reducer`` given by the launcher: sim.collectives' executor on the cluster's machine) and
answers every member with its part of the result and the simulated time.

The cluster has one simulated clock, held here: each member says when (on its clock) it reached
the collective; the collective starts when the slowest arrives and lasts the replayed time, and
every member leaves at its end. A member that dies, raises or leaves early fails the round:
every member waiting (or arriving later) is answered ``abort`` naming the task and the reason.
"""
from __future__ import annotations

import os
import socket
import threading

from sim.fabric import protocol
from sim.fabric.door import Door


class Fabric:
    """Serve the collectives of one launch. ``group``: task names ("worker:0"...) in rank order;
    ``host``/``port``: where to listen (loopback; port 0 picks a free one)."""

    def __init__(self, group, secret: bytes, reducer=None, start=True, host="127.0.0.1", port=0,
                 say=None):
        self.group = list(group)
        self._reducer = reducer
        self._door = Door(secret, self._serve, _hello, host, port, say=say)   # say: refused peers
        self.address = self._door.address
        self._lock = threading.Lock()
        self._conns: dict = {}          # task -> connection
        self._pending: dict = {}        # seq -> {task: (header, arrays)}
        self._done: set = set()         # tasks that said bye
        self.failure = None             # (task, reason) of the first failure
        self.now = 0.0                  # the cluster's simulated clock (end of the last collective)
        self.collectives: list = []     # (seq, op, start, end, nbytes) per round, for a timeline
        self.traces: dict = {}          # task -> the trace it reported when it left
        self._closed = False
        if start:
            self.start()

    def start(self):
        """Accept the tasks' connections (they wait in the listen queue until then)."""
        self._door.start()

    # -- connections ----------------------------------------------------------------------------
    def _serve(self, conn, header):
        """A connection that passed the handshake (door.py) and said ``header``: serve its task."""
        task = header.get("task")
        protocol.nodelay(conn)
        try:
            with self._lock:
                if not isinstance(task, str) or task not in self.group or task in self._conns:
                    why = "already joined" if task in self._conns else "unknown task"
                    protocol.send(conn, {"op": "refused", "reason": f"{why} {task!r}"})
                    task = None
                    return
                self._conns[task] = conn
                protocol.send(conn, {"op": "welcome", "rank": self.group.index(task),
                                     "size": len(self.group), "group": self.group})
            while True:
                header, arrays = protocol.recv(conn)
                op = header.get("op")
                if op == "bye":
                    with self._lock:
                        self.traces[task] = header.get("trace", [])
                        self._done.add(task)
                        self._left(task)
                    return
                if op == "error":
                    self.fail(task, header.get("reason", "error"))
                    continue
                self._contribute(task, header, arrays)
        except Exception:    # EOF, a reset, or a malformed frame: the task is lost, never a traceback
            if task is not None and task not in self._done and not self._closed:
                self.fail(task, "lost")
        finally:
            conn.close()

    # -- rounds -----------------------------------------------------------------------------------
    def _contribute(self, task, header, arrays):
        with self._lock:
            if self.failure is not None:
                self._send(task, self._abort_header())
                return
            seq = header["seq"]
            round_ = self._pending.setdefault(seq, {})
            round_[task] = (header, arrays)
            if len(round_) == len(self.group):
                del self._pending[seq]
                self._complete(seq, round_)
            else:
                gone = [t for t in self._done if t not in round_]
                if gone:
                    self._fail_locked(gone[0], f"left:{seq}")

    def _complete(self, seq, round_):
        parts = [round_[t] for t in self.group]
        headers = [h for h, _ in parts]
        op = headers[0]["op"]
        same_shapes = op != "gather"             # a gather's pieces may differ along its axis
        mismatch = next((t for t, h in zip(self.group, headers)
                         if h["op"] != op or (same_shapes and h.get("shapes") != headers[0].get("shapes"))),
                        None)
        if mismatch is not None:
            self._fail_locked(mismatch, f"mismatch:{seq}:{op}:{round_[mismatch][0]['op']}")
            return
        start = max(max(h.get("arrive", 0.0) for h in headers), self.now)
        if op == "broadcast":
            seconds, answers = 0.0, [parts[0][1]] * len(parts)
        elif op == "gather":                      # every member gets every piece, in rank order
            pieces = [a for _, arrays in parts for a in arrays]
            seconds, answers = 0.0, [pieces] * len(parts)
        else:
            counts = [len(a) for _, a in parts]
            buffers = [b for _, a in parts for b in a]
            devices = [d for h in headers for d in h.get("devices", [])]
            try:
                results, seconds = self._reducer(headers[0], buffers, devices)
            except Exception as e:   # the reducer is our code: report, never hang the cluster
                self._fail_locked(self.group[0], f"fabric: {type(e).__name__}: {e}")
                return
            answers, k = [], 0
            for c in counts:
                answers.append(results[k:k + c])
                k += c
        end = start + seconds
        self.now = end
        nbytes = float(sum(a.nbytes for a in parts[0][1]))
        self.collectives.append((seq, op, start, end, nbytes))
        for t, arrays in zip(self.group, answers):
            header = {"op": "result", "seq": seq, "start": start, "seconds": seconds}
            if len(arrays) > 1 and all(a.shape == arrays[0].shape and (a == arrays[0]).all()
                                       for a in arrays[1:]):
                # every local replica got the same bits (ring, NCCL): send them once
                header["copies"], arrays = len(arrays), arrays[:1]
            self._send(t, header, arrays)

    def _left(self, task):
        """``task`` said bye: a round still waiting for it can never complete."""
        for seq, round_ in sorted(self._pending.items()):
            if task not in round_:
                self._fail_locked(task, f"left:{seq}")
                return

    def ended(self, task, returncode=0):
        """The launcher saw ``task``'s process end: a round still waiting for it cannot complete."""
        with self._lock:
            if task in self.group and task not in self._done:
                self._done.add(task)
                if returncode:
                    self._fail_locked(task, "lost")
                else:
                    self._left(task)

    def all_left(self) -> bool:
        """Every member said bye or was lost, or the cluster failed: nobody needs the fabric."""
        with self._lock:
            return self.failure is not None or set(self.group) <= self._done

    @property
    def closed(self) -> bool:
        return self._closed

    def waiting(self):
        """``(joined, rounds)``: the tasks connected so far, and each unfinished round's
        ``{seq: tasks that reached it}`` (who the others wait for, when a launch hangs)."""
        with self._lock:
            return set(self._conns), {seq: set(r) for seq, r in self._pending.items()}

    # -- failures ---------------------------------------------------------------------------------
    def fail(self, task, reason):
        """Record ``task``'s failure (the first one wins) and abort every waiting member."""
        with self._lock:
            self._fail_locked(task, reason)

    def _fail_locked(self, task, reason):
        if self.failure is None:
            self.failure = (task, reason)
        waiting = {t for round_ in self._pending.values() for t in round_}
        self._pending.clear()
        for t in waiting:
            self._send(t, self._abort_header())

    def _abort_header(self):
        task, reason = self.failure
        return {"op": "abort", "task": task, "reason": reason}

    def _send(self, task, header, arrays=()):
        conn = self._conns.get(task)
        if conn is None:
            return
        try:
            protocol.send(conn, header, arrays)
        except OSError:
            pass

    # -- lifetime ---------------------------------------------------------------------------------
    def close(self):
        """Stop accepting, shut every connection; the serving threads end."""
        if self._closed:
            return
        self._closed = True
        self._door.close()
        with self._lock:
            conns = list(self._conns.values())
        for conn in conns:
            _shut(conn)
        for t in self._door.threads:
            t.join(timeout=2)


def _hello(conn):
    """A task's first message, read during the handshake: its hello, or None."""
    header, _ = protocol.recv(conn)
    return header if header.get("op") == "hello" else None


def _shut(conn):
    try:
        s = socket.socket(fileno=os.dup(conn.fileno()))
    except OSError:
        return
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        s.close()
