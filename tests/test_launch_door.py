"""The fabric's door (sim/fabric/door.py): many tasks at once always get in, and no stranger
without the secret (silent, a few bytes, a byte at a time) delays them or the fabric's close by
more than the handshake deadline."""
import secrets
import socket
import threading
import time

import numpy as np
import pytest

from sim.fabric import client as fabric_client
from sim.fabric.door import HANDSHAKE_SECONDS
from sim.fabric.server import Fabric


def _sum(header, buffers, devices):
    total = sum(buffers)
    return [total.copy() for _ in buffers], 1e-3


def _clients(monkeypatch, fabric, secret, names, seconds=20):
    """Connect every task of ``names`` at once (one thread each); {name: client} of those in."""
    monkeypatch.setenv(fabric_client.ENV_ADDRESS, "%s:%d" % fabric.address)
    monkeypatch.setenv(fabric_client.ENV_SECRET, secret.hex())
    got = {}

    def join(name):
        got[name] = fabric_client.FabricClient(name)
    threads = [threading.Thread(target=join, args=(n,), daemon=True) for n in names]
    for t in threads:
        t.start()
    deadline = time.monotonic() + seconds
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    return got


def test_many_tasks_joining_at_once_all_get_in(monkeypatch):
    """Main's listener had a backlog of 1 and one handshake at a time: dropped ACKs, lost tasks."""
    names = [f"worker:{k}" for k in range(200)]
    secret = secrets.token_bytes(32)
    fabric = Fabric(names, secret, _sum)
    try:
        got = _clients(monkeypatch, fabric, secret, names)
        assert sorted(got, key=names.index) == names
        assert sorted(c.rank for c in got.values()) == list(range(200))
    finally:
        for c in list(got.values()):
            c.close(trace=[])
        fabric.close()


def _silent(addr):
    s = socket.create_connection(addr)
    return s


def _few_bytes(addr):
    s = socket.create_connection(addr)
    s.sendall(b"\x00\x00")              # half of a length prefix, then nothing
    return s


def _slow_loris(addr, stop):
    s = socket.create_connection(addr)

    def drip():
        while not stop.is_set():
            try:
                s.send(b"\x00")
            except OSError:
                return
            stop.wait(0.5)
    threading.Thread(target=drip, daemon=True).start()
    return s


def test_strangers_held_at_start_and_end_delay_neither_the_tasks_nor_the_close(monkeypatch):
    secret = secrets.token_bytes(32)
    fabric = Fabric(["worker:0", "worker:1"], secret, _sum)
    stop = threading.Event()
    strangers = [_silent(fabric.address), _few_bytes(fabric.address),
                 _slow_loris(fabric.address, stop)]
    try:
        start = time.monotonic()
        got = _clients(monkeypatch, fabric, secret, ["worker:0", "worker:1"], seconds=30)
        assert len(got) == 2
        assert time.monotonic() - start < 2.0          # not held up by the strangers at the door
        out = {}

        def run(c):
            out[c.rank] = c.all_reduce([np.full(2, c.rank + 1.0)], ["d"], 0.0, "ring")[0]
        threads = [threading.Thread(target=run, args=(c,)) for c in got.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert out[0][0].tolist() == out[1][0].tolist() == [3.0, 3.0]
        for c in got.values():
            c.close(trace=[])
        strangers += [_silent(fabric.address), _slow_loris(fabric.address, stop)]   # at the end
        time.sleep(0.3)
        start = time.monotonic()
        fabric.close()
        assert time.monotonic() - start < 3.0          # close() does not wait for a stranger
    finally:
        stop.set()
        for s in strangers:
            s.close()
        fabric.close()


def test_a_silent_stranger_is_cut_off_after_the_handshake_deadline():
    fabric = Fabric(["worker:0"], secrets.token_bytes(32), _sum)
    try:
        s = _silent(fabric.address)
        s.settimeout(HANDSHAKE_SECONDS + 5)
        start = time.monotonic()
        data = s.recv(1024)                  # the challenge, then the end: the fabric hung up
        while data:
            data = s.recv(1024)
        assert time.monotonic() - start < HANDSHAKE_SECONDS + 2
        s.close()
    finally:
        fabric.close()


def test_a_task_that_joins_twice_is_refused(monkeypatch):
    from sim.engine.errors import AlreadyExistsError
    secret = secrets.token_bytes(32)
    fabric = Fabric(["worker:0", "worker:1"], secret, _sum)
    try:
        first = _clients(monkeypatch, fabric, secret, ["worker:0"])["worker:0"]
        with pytest.raises(AlreadyExistsError, match="already joined the cluster as worker 0"):
            fabric_client.FabricClient("worker:0")
        first.close(trace=[])
    finally:
        fabric.close()
