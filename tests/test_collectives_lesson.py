"""Lesson 02 helpers: ring pictures, widget logic, NCCL model sanity values, exercise checkers."""
from __future__ import annotations

import numpy as np
import pytest

from sim.collectives import nccl_model
from sim.course.exercises.checker import ExerciseFailed, ExerciseNotDone
from sim.course.plots.collectives import ring_states, widget_view


def test_ring_states_end_with_every_contribution():
    states, rounds = ring_states(4)
    assert len(states) == 7 and (states[-1] == 0b1111).all()
    # after the reduce-scatter rank r owns the full segment r
    assert all(states[3][r, r] == 0b1111 for r in range(4))


def test_widget_view_names_the_fastest():
    view = widget_view("dgx-a100", 8, 2**20, "ring")
    assert view["chosen"]["algorithm"] == "ring" and view["size_bytes"] == 2**20
    same = [r for r in view["rows"] if r["size_bytes"] == 2**20]
    assert view["fastest"]["time_us"] == min(r["time_us"] for r in same)
    small = widget_view("workstation-4gpu", 3, 1000, "halving_doubling")
    assert small["devices"] == 3 and small["chosen"] is None        # not a power of two


def test_nccl_model_sanity_values_from_reference():
    """§3.3: single node, 8 GPUs on NVLink; and PCIe Ring Simple."""
    nv = nccl_model.NcclTopology(n_ranks=8)
    lat = {(a, p): nccl_model.latency_us(nv, a, p) for a in ("ring", "tree") for p in nccl_model.PROTOCOLS}
    assert lat[("ring", "LL")] == pytest.approx(15.0)
    assert lat[("ring", "LL128")] == pytest.approx(40.6)
    assert lat[("ring", "Simple")] == pytest.approx(56.0)
    assert lat[("tree", "Simple")] == pytest.approx(64.4)
    pcie = nccl_model.NcclTopology(n_ranks=8, intra="pcie", bus_bw=12, n_channels=1)
    assert nccl_model.latency_us(pcie, "ring", "Simple") == pytest.approx(88.2)


def test_nccl_picks_low_latency_small_and_simple_large():
    topo = nccl_model.NcclTopology(n_ranks=8)
    assert nccl_model.choose(topo, 1024)[1] == "LL"
    assert nccl_model.choose(topo, 2**30)[1] == "Simple"
    many = nccl_model.NcclTopology(n_ranks=512, n_nodes=64, bus_bw=25, n_channels=2)
    assert nccl_model.choose(many, 4096)[0] == "tree"          # trees win small messages at scale


def _solution_ring(arrays):
    p, n = len(arrays), len(arrays[0])
    total = np.sum(np.stack(arrays), axis=0)
    return [total.copy() for _ in range(p)]


def test_ring_checker_passes_solution_and_reports_gaps(capsys):
    from sim.course.exercises.lesson02_ring_allreduce import check_ring_allreduce
    assert check_ring_allreduce(_solution_ring) is None
    assert "All 8 cases pass" in capsys.readouterr().out

    def not_done(arrays):
        raise NotImplementedError()
    with pytest.raises(ExerciseNotDone):
        check_ring_allreduce(not_done)

    def half(arrays):     # only device 0 gets the sum
        total = np.sum(np.stack(arrays), axis=0)
        return [total] + [a.copy() for a in arrays[1:]]
    with pytest.raises(ExerciseFailed) as failure:
        check_ring_allreduce(half)
    assert "all-gather" in str(failure.value)


def test_choose_checker():
    from sim.collectives.cost import closed_form
    from sim.course.exercises.lesson02_choose_algorithm import check_choose_algorithm

    def solution(p, nbytes, alpha, beta):
        names = ["reduce_to_one", "ring", "binomial_tree"] + (["halving_doubling"] if p & (p - 1) == 0 else [])
        return min(names, key=lambda a: closed_form(a, p, nbytes, alpha, beta))
    assert check_choose_algorithm(solution) is None
    with pytest.raises(ExerciseFailed):
        check_choose_algorithm(lambda *a: "ring")
