"""A launched task's side of the fabric: one authenticated connection, collectives as rounds.

The launcher puts the fabric's address and the launch's secret in each task's environment
(``SIM_LAUNCH_FABRIC``, ``SIM_LAUNCH_SECRET``); a process started any other way has neither
and cannot join. MultiWorkerMirroredStrategy is the only user: it connects when it is created,
sends each collective's contribution and waits for the answer. An ``abort`` answer (another
task failed) becomes TensorFlow's ``UnavailableError`` naming the failed task.
"""
from __future__ import annotations

import atexit
import os

ENV_ADDRESS = "SIM_LAUNCH_FABRIC"
ENV_SECRET = "SIM_LAUNCH_SECRET"
ENV_MACHINE = "SIM_LAUNCH_MACHINE"
ENV_GPUS = "SIM_LAUNCH_GPUS_PER_WORKER"
ENV_FAIL_STEP = "SIM_LAUNCH_FAIL_AT_STEP"

_client = None


def launched() -> bool:
    """Was this process started by the launcher (does it know a fabric)?"""
    return bool(os.environ.get(ENV_ADDRESS)) and bool(os.environ.get(ENV_SECRET))


def connect(task_type: str, task_id: int, address=None, secret=None) -> "FabricClient":
    """The process's one connection to the fabric (made on the first call); ``address``
    (host, port) and ``secret`` default to the launcher's (the environment)."""
    global _client
    if _client is None:
        _client = FabricClient(f"{task_type}:{task_id}", address, secret)
    return _client


def current():
    return _client


class FabricClient:
    """Send contributions, receive results; ``rank``/``size``: place in the collective group."""

    def __init__(self, task: str, address=None, secret=None):
        from sim.fabric import protocol
        from sim.fabric.dial import dial
        if address is None:
            host, _, port = os.environ[ENV_ADDRESS].rpartition(":")
            address = (host, int(port))
        if secret is None:
            secret = bytes.fromhex(os.environ[ENV_SECRET])
        self.task = task
        self._protocol = protocol
        self._conn, header = dial(address, secret, {"op": "hello", "task": task, "pid": os.getpid()})
        if header.get("op") != "welcome":
            reason = str(header.get("reason", "refused"))
            if reason.startswith(("already joined", "unknown task")):   # this task's own mistake
                from sim.engine.errors import AlreadyExistsError, InvalidArgumentError
                from sim.fabric.messages import task_label
                from sim.i18n import t
                kind = AlreadyExistsError if reason.startswith("already") else InvalidArgumentError
                key = "fabric.duplicate_task" if reason.startswith("already") else "fabric.unknown_task"
                raise kind(None, None, t(key, task=task_label(task)))
            raise _unavailable(task, reason)
        self.rank, self.size, self.group = header["rank"], header["size"], header["group"]
        self._seq = 0
        self._closed = False
        atexit.register(self.close)

    def _round(self, header, arrays):
        self._seq += 1
        header = dict(header, seq=self._seq, shapes=[list(a.shape) for a in arrays])
        try:
            self._protocol.send(self._conn, header, arrays)
            answer, out = self._protocol.recv(self._conn)
        except (EOFError, OSError):
            raise _unavailable("launcher", "lost") from None
        if answer.get("op") == "abort":
            raise _unavailable(answer.get("task", "?"), answer.get("reason", ""))
        return answer, out

    def all_reduce(self, buffers, devices, arrive, algorithm, options=None):
        """SUM of every member's ``buffers`` (flat, one per local replica): (results, start, seconds).

        ``arrive``: this task's clock when it reached the collective; ``start`` is the cluster's
        (the slowest arrival), ``seconds`` the replayed time on the cluster's machine.
        """
        answer, out = self._round({"op": "all_reduce", "devices": list(devices), "arrive": arrive,
                                   "algorithm": algorithm, "options": options or {}}, buffers)
        if answer.get("copies"):
            out = [out[0]] + [out[0].copy() for _ in range(answer["copies"] - 1)]
        return out, answer["start"], answer["seconds"]

    def broadcast(self, arrays, arrive=0.0):
        """Rank 0's ``arrays`` on every member (the chief's initial values)."""
        _, out = self._round({"op": "broadcast", "arrive": arrive}, arrays)
        return out

    def gather(self, arrays, arrive=0.0):
        """Every member's ``arrays`` (one per local replica), all of them in replica order."""
        answer, out = self._round({"op": "gather", "arrive": arrive}, arrays)
        if answer.get("copies"):      # all pieces equal: the fabric sent one (server._complete)
            out = [out[0]] + [out[0].copy() for _ in range(answer["copies"] - 1)]
        return out

    def report_error(self, reason: str):
        """Tell the fabric this task is failing (the others then abort, naming it)."""
        try:
            self._protocol.send(self._conn, {"op": "error", "reason": reason})
        except OSError:
            pass

    def close(self, trace=None):
        """Leave the cluster, handing the fabric this task's trace for the cluster's timeline."""
        if self._closed:
            return
        self._closed = True
        if trace is None:
            trace = _clock_trace()
        try:
            self._protocol.send(self._conn, {"op": "bye", "trace": trace})
            self._conn.close()
        except OSError:
            pass


def _clock_trace():
    from sim.runtime import clock
    rows = []
    for e in clock().trace:
        if hasattr(e, "_asdict"):
            d = e._asdict()
            rows.append({k: (v if isinstance(v, (int, float, str)) or v is None else str(v))
                         for k, v in d.items()})
    return rows


def _unavailable(task, reason):
    from sim.engine.errors import UnavailableError
    from sim.fabric.messages import abort_message
    error = UnavailableError(None, None, abort_message(task, reason))
    error._sim_peer_failure = True      # this task stops because another one failed
    return error
