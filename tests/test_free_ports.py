"""Ports for later listeners come from below the ephemeral range and are free when returned."""
import socket

import pytest

from sim.launch import free_ports as ports


def test_ports_are_distinct_free_and_below_the_range_the_system_hands_out():
    low, _ = ports.ephemeral_range()
    found = ports.free_ports(8)
    assert len(set(found)) == 8
    for port in found:
        assert ports.LOWEST <= port < low
        assert ports._bindable(port)


def test_a_port_in_use_is_never_returned(monkeypatch):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    taken = busy.getsockname()[1]
    draws = iter([taken, taken, 21001, 21002])
    monkeypatch.setattr(ports, "_candidates", lambda: range(20000, 30000))
    monkeypatch.setattr(ports._draw, "choice", lambda seq: next(draws))
    monkeypatch.setattr(ports, "_bindable", lambda p: p != taken)
    try:
        assert ports.free_ports(2) == [21001, 21002]
    finally:
        busy.close()


def test_a_consecutive_run_skips_a_base_whose_next_port_is_taken(monkeypatch):
    draws = iter([24000, 25000])
    monkeypatch.setattr(ports, "_candidates", lambda: range(20000, 30000))
    monkeypatch.setattr(ports._draw, "choice", lambda seq: next(draws))
    monkeypatch.setattr(ports, "_bindable", lambda p: p != 24001)
    assert ports.consecutive_free_ports(3) == 25000


def test_with_no_room_below_the_range_the_systems_choice_is_used(monkeypatch):
    monkeypatch.setattr(ports, "ephemeral_range", lambda: (ports.LOWEST + 10, 60999))
    assert ports._candidates() is None
    assert len(set(ports.free_ports(3))) == 3
    base = ports.consecutive_free_ports(2)
    assert ports._bindable(base) and ports._bindable(base + 1)


def test_the_range_is_read_from_the_kernels_file(tmp_path):
    f = tmp_path / "range"
    f.write_text("40000\t50000\n")
    assert ports.ephemeral_range(str(f)) == (40000, 50000)
    assert ports.ephemeral_range(str(tmp_path / "missing")) == (49152, 65535)


def test_nothing_free_says_how_many_were_found(monkeypatch):
    monkeypatch.setattr(ports, "_bindable", lambda p: False)
    with pytest.raises(RuntimeError, match="only 0 of 2"):
        ports.free_ports(2)
