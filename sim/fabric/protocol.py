"""The fabric's wire format: one frame per message, a JSON header then the arrays' raw bytes.

A message is one ``send_bytes`` of ``multiprocessing.connection``: 4 bytes (big-endian) giving
the header's length, the header (UTF-8 JSON, a dict whose ``"arrays"`` lists each array's dtype
and shape), then the bytes of each array in order. Nothing is ever unpickled: a peer can only
send numbers and JSON. The connection itself is opened with the launch's secret (``authkey``:
an HMAC challenge both ways), so only tasks the launcher started can talk to the fabric at all.
``nodelay`` turns off Nagle's algorithm: a collective is a request and its answer, and waiting
for a delayed ACK would cost 40 ms per round.
"""
from __future__ import annotations

import json
import socket
import struct

# dtypes a collective may carry (no object arrays: those would need pickles)
_KINDS = frozenset("biufc")


def nodelay(conn) -> None:
    """Send small messages at once on this connection's TCP socket (TCP_NODELAY)."""
    try:
        s = socket.fromfd(conn.fileno(), socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return
    try:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass
    finally:
        s.close()


def send(conn, header: dict, arrays=()) -> None:
    """Send ``header`` and ``arrays`` (NumPy arrays of numbers) as one message."""
    parts = []
    if arrays:
        import numpy as np   # imported here: the launcher starts before any task needs arrays
        arrays = [np.ascontiguousarray(a) for a in arrays]
        for a in arrays:
            if a.dtype.kind not in _KINDS:
                raise TypeError(f"the fabric carries numeric arrays only, not {a.dtype}")
        header = dict(header, arrays=[[a.dtype.str, list(a.shape)] for a in arrays])
        parts = [a.tobytes() for a in arrays]
    head = json.dumps(header).encode("utf-8")
    conn.send_bytes(b"".join([struct.pack(">I", len(head)), head] + parts))


def recv(conn):
    """Receive one message: ``(header, [arrays])``. Raises EOFError when the peer is gone."""
    frame = conn.recv_bytes()
    (n,) = struct.unpack(">I", frame[:4])
    header = json.loads(frame[4:4 + n].decode("utf-8"))
    if not isinstance(header, dict):
        raise ValueError("fabric message header is not a JSON object")
    specs = header.pop("arrays", None)
    arrays = []
    if not specs:
        return header, arrays
    import numpy as np
    offset = 4 + n
    for dtype, shape in specs:
        dt = np.dtype(dtype)
        if dt.kind not in _KINDS:
            raise ValueError(f"fabric message carries a non-numeric dtype {dtype!r}")
        count = int(np.prod(shape, dtype=np.int64))
        arrays.append(np.frombuffer(frame, dtype=dt, count=count, offset=offset).reshape(shape).copy())
        offset += count * dt.itemsize
    if offset != len(frame):
        raise ValueError("fabric message length does not match its header")
    return header, arrays
