"""The vectorised range reads/writes of the replay give exactly what the per-transfer loops give."""
import numpy as np
import pytest

from sim.collectives import build
from sim.collectives import ranges
from sim.collectives.replay import timing
from sim.hardware import cluster, preset


def test_max_over_and_raise_to_match_loops():
    rng = np.random.default_rng(0)
    table = rng.random((5, 7))
    rank = rng.integers(0, 5, 40)
    lo = rng.integers(0, 6, 40)
    hi = lo + 1 + rng.integers(0, 7 - lo)
    np.testing.assert_array_equal(ranges.max_over(table, rank, lo, hi),
                                  ranges.read_loop(table, rank, lo, hi))
    when = rng.random(40) * 2
    a, b = table.copy(), table.copy()
    ranges.raise_to(a, rank, lo, hi, when)
    ranges.write_loop(b, rank, lo, hi, when)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("algorithm", ["ring", "nccl_tree", "double_binary_tree", "hierarchical"])
@pytest.mark.parametrize("count", [2, 37])
def test_fast_replay_agrees_with_the_loops(monkeypatch, algorithm, count):
    """Fewer elements than ranks x channels: a hierarchical schedule's chunks span several
    pieces (the slow path once); a ring's are one element or empty, so one piece each."""
    machine = cluster("dgx-a100", 4)
    ranks = machine.gpus
    sched = build(algorithm, len(ranks), count, machine=machine, ranks=ranks)
    fast = timing(sched, machine, count * 4, ranks, keep=True)
    monkeypatch.setattr(ranges, "LOOPS", True)
    calls = []
    real = ranges.read_loop
    monkeypatch.setattr(ranges, "read_loop", lambda *a: calls.append(1) or real(*a))
    slow = timing(sched, machine, count * 4, ranks, keep=True)
    assert fast.total == slow.total
    for x, y in zip(fast.end, slow.end):
        np.testing.assert_array_equal(x, y)
    if algorithm == "hierarchical" and count == 37:
        assert calls, "the multi-piece path was not exercised"
    if algorithm == "ring":
        # fewer elements than ranks: every range is one element or empty, read as one piece
        assert not calls, "ranges of one piece took the multi-piece path"


def test_small_ring_on_one_node_unchanged(monkeypatch):
    machine = preset("dgx-a100")
    sched = build("ring", 8, 3, machine=machine, ranks=machine.gpus)
    fast = timing(sched, machine, 12, machine.gpus).total
    monkeypatch.setattr(ranges, "LOOPS", True)
    assert timing(sched, machine, 12, machine.gpus).total == fast
