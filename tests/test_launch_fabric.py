"""The fabric: framing without pickles, only the launch's tasks admitted, rounds and aborts."""
import secrets
import threading
from multiprocessing.connection import Client

import numpy as np
import pytest

from sim.fabric import client as fabric_client, protocol
from sim.fabric.server import Fabric


class _Pipe:
    def __init__(self):
        self.frames = []

    def send_bytes(self, b):
        self.frames.append(bytes(b))

    def recv_bytes(self):
        return self.frames.pop(0)


def test_protocol_round_trip_is_json_and_raw_bytes():
    p = _Pipe()
    a, b = np.arange(6, dtype=np.float64).reshape(2, 3), np.array([1, 2], dtype=np.int32)
    protocol.send(p, {"op": "x", "seq": 3}, [a, b])
    assert len(p.frames) == 1 and b"pickle" not in p.frames[0]
    header, (a2, b2) = protocol.recv(p)
    assert header == {"op": "x", "seq": 3}
    np.testing.assert_array_equal(a2, a)
    assert b2.dtype == np.int32 and b2.tolist() == [1, 2]


def test_protocol_refuses_object_arrays():
    with pytest.raises(TypeError):
        protocol.send(_Pipe(), {}, [np.array([object()])])


@pytest.fixture
def fabric():
    secret = secrets.token_bytes(16)

    def reducer(header, buffers, devices):
        total = sum(buffers)
        return [total.copy() for _ in buffers], 1e-3
    f = Fabric(["worker:0", "worker:1"], secret, reducer)
    yield f, secret
    f.close()


def _client(monkeypatch, fabric, task, secret=None):
    f, s = fabric
    monkeypatch.setenv(fabric_client.ENV_ADDRESS, "%s:%d" % f.address)
    monkeypatch.setenv(fabric_client.ENV_SECRET, (secret or s).hex())
    return fabric_client.FabricClient(task)


def test_a_wrong_secret_is_refused(fabric, monkeypatch):
    from multiprocessing import AuthenticationError
    with pytest.raises(AuthenticationError):
        _client(monkeypatch, fabric, "worker:0", secret=b"not the launch's secret")
    with pytest.raises(AuthenticationError):
        Client(fabric[0].address, authkey=b"guess")


def test_all_reduce_sums_and_shares_one_clock(fabric, monkeypatch):
    c0, c1 = (_client(monkeypatch, fabric, f"worker:{k}") for k in (0, 1))
    assert (c0.rank, c1.rank, c0.size) == (0, 1, 2)
    out = {}

    def run(c, arrive):
        out[c.rank] = c.all_reduce([np.full(3, c.rank + 1.0)], ["d%d" % c.rank], arrive, "ring")
    threads = [threading.Thread(target=run, args=(c, a)) for c, a in ((c0, 0.5), (c1, 0.2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    for k in (0, 1):
        results, start, seconds = out[k]
        assert results[0].tolist() == [3.0, 3.0, 3.0]
        assert (start, seconds) == (0.5, 1e-3)          # the slowest arrival, then the collective
    assert fabric[0].now == 0.5 + 1e-3
    c0.close(trace=[])
    c1.close(trace=[])


def test_a_failed_task_aborts_the_others_naming_it(fabric, monkeypatch):
    from sim.engine.errors import UnavailableError
    c0, c1 = (_client(monkeypatch, fabric, f"worker:{k}") for k in (0, 1))
    c1.report_error("ValueError: bad batch")
    with pytest.raises(UnavailableError, match="worker 1 raised ValueError: bad batch"):
        c0.all_reduce([np.ones(2)], ["d0"], 0.0, "ring")
    assert fabric[0].failure == ("worker:1", "ValueError: bad batch")
    c0.close(trace=[])
    c1.close(trace=[])
