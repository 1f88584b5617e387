"""The replayed time equals the closed form on uncontended topologies (reference §1), and the
simulator shows contention where a topology shares links."""
from __future__ import annotations

import functools

import pytest

from sim.collectives import build
from sim.collectives.cost import closed_form, port_model_time
from sim.collectives.replay import replay
from sim.hardware import devices as D
from sim.hardware import switched
from sim.hardware.machine import Machine

ALPHA, BW = 2e-6, 25e9          # per message: two hops of 1 µs through a switch
SIZES = (8, 1000, 2**20, 2**30)


@functools.lru_cache(maxsize=None)
def star(p: int) -> Machine:
    """p devices on one non-blocking switch: the single-port, full-duplex model of §0."""
    return switched(p, BW, ALPHA / 2)


@functools.lru_cache(maxsize=None)
def rails(nodes: int, g: int, bw_out: float = 5e9, alpha_out: float = 10e-6) -> Machine:
    """N nodes of g GPUs: a switch per node, and per local index j a 'rail' switch across nodes."""
    m = Machine(f"rails-{nodes}x{g}")
    rail = [m.add_node(f"rail{j}", "switch") for j in range(g)]
    for h in range(nodes):
        sw = m.add_node(f"node{h}", "switch", host=h)
        for j in range(g):
            dev = m.add_device("GPU", D.A100_SXM4, host=h)
            m.connect(dev, sw, BW, ALPHA / 2, "nvlink")
            m.connect(dev, rail[j], bw_out, alpha_out / 2, "ib")
    return m


@functools.lru_cache(maxsize=None)
def torus_machine(x: int, y: int) -> Machine:
    """An x-by-y torus of TPU chips, one full-duplex link per neighbour pair."""
    m = Machine(f"torus-{x}x{y}")
    chips = [m.add_device("TPU", D.TPU_V4_CHIP) for _ in range(x * y)]
    for j in range(y):
        for i in range(x):
            m.connect(chips[j * x + i], chips[j * x + (i + 1) % x], BW, ALPHA, "ici")
            m.connect(chips[j * x + i], chips[((j + 1) % y) * x + i], BW, ALPHA, "ici")
    return m


def _check(name, p, n, machine, **kw):
    sched = build(name, p, n, **{k: v for k, v in kw.items() if k in ("shape", "group_size", "bidirectional")})
    got = replay(sched, machine, n)
    want = closed_form(name, p, n, ALPHA, 1 / BW, **kw)
    assert got == pytest.approx(want, rel=0.01), (name, p, n, got, want)


@pytest.mark.parametrize("p", [2, 3, 4, 7, 8, 16, 64, 256, 1024])
@pytest.mark.parametrize("name", ["ring", "reduce_to_one", "binomial_tree"])
def test_any_count_matches_closed_form(name, p):
    if name == "binomial_tree" and p & (p - 1):
        pytest.skip("not a power of two: see test_binomial_tree_off_powers_of_two")
    for n in SIZES:
        _check(name, p, n, star(p))


@pytest.mark.parametrize("p", [3, 7, 13, 100])
def test_binomial_tree_off_powers_of_two(p):
    """Off powers of two the closed form's ⌈lg p⌉ rounds are barriers the data does not need
    (rank 2 of 3 has nothing to wait for): the dependency-driven replay lies between the form for
    the power of two below p and the form for p, and reaches the lower one for tiny messages."""
    low = 1 << (p.bit_length() - 1)
    for n in SIZES:
        got = replay(build("binomial_tree", p, n), star(p), n)
        assert closed_form("binomial_tree", low, n, ALPHA, 1 / BW) * 0.999 <= got
        assert got <= closed_form("binomial_tree", p, n, ALPHA, 1 / BW) * 1.001
    assert replay(build("binomial_tree", p, 8), star(p), 8) == pytest.approx(
        closed_form("binomial_tree", low, 8, ALPHA, 1 / BW), rel=0.01)


@pytest.mark.parametrize("p", [2, 4, 8, 64, 1024])
@pytest.mark.parametrize("name", ["halving_doubling", "recursive_doubling", "hierarchical_copy"])
def test_power_of_two_algorithms_match_closed_form(name, p):
    for n in SIZES:
        _check(name, p, n, star(p))


@pytest.mark.parametrize("nodes,g", [(2, 4), (4, 8), (16, 8), (128, 8)])
@pytest.mark.parametrize("name", ["hierarchical", "hierarchical_reduce"])
def test_two_level_matches_closed_form(name, nodes, g):
    m = rails(nodes, g)
    for n in SIZES:
        sched = build(name, nodes * g, n, machine=m, ranks=m.gpus)
        got = replay(sched, m, n)
        want = closed_form(name, nodes * g, n, ALPHA, 1 / BW, group_size=g,
                           alpha_out=10e-6, beta_out=1 / 5e9)
        assert got == pytest.approx(want, rel=0.01), (name, nodes, g, n)


@pytest.mark.parametrize("x,y", [(3, 3), (4, 4), (8, 4), (32, 32)])
def test_torus_matches_closed_form(x, y):
    for n in SIZES:
        _check("torus", x * y, n, torus_machine(x, y), shape=(x, y))
        _check("torus", x * y, n, torus_machine(x, y), shape=(x, y), bidirectional=False)


@pytest.mark.parametrize("p", [2, 3, 8, 13, 64, 256])
def test_double_binary_tree_matches_port_model_and_reference_bound(p):
    """The pipelined tree's per-step load varies (fill/drain, shared parent port): the port model
    round by round is its closed form with rounds as barriers. The dependency-driven replay lets
    the broadcast of the first chunks overlap the reduction of the last, so it is at most that,
    at least the all-reduce bandwidth bound 2(p-1)/p·nβ plus one message, equal to it (1 %)
    for tiny and for large messages, and under §1.5's 2(D+k-1)(α+(n/k)β)."""
    for n in SIZES:
        sched = build("double_binary_tree", p, n)
        got = replay(sched, star(p), n)
        barrier = port_model_time(sched, n, ALPHA, 1 / BW)
        assert (2 * (p - 1) / p * n / BW + ALPHA) * (1 - 1e-9) <= got <= barrier * 1.0001
        if n <= 1000 or n >= 2**30:
            assert got == pytest.approx(barrier, rel=0.01)
        upper = closed_form("double_binary_tree", p, n, ALPHA, 1 / BW, chunks=sched.info["chunks"])
        assert got <= upper * 1.0001
        if p >= 8 and n >= 2**30:          # large messages: within 10% of the reference form
            assert got >= 0.9 * upper


@pytest.mark.parametrize("name", ["ring", "halving_doubling", "binomial_tree", "reduce_to_one",
                                  "hierarchical_copy", "recursive_doubling"])
def test_port_model_equals_closed_form(name):
    for p in (2, 8, 32):
        for n in SIZES:
            sched = build(name, p, n)
            assert port_model_time(sched, n, ALPHA, 1 / BW) == pytest.approx(
                closed_form(name, p, n, ALPHA, 1 / BW), rel=0.01)


def test_gamma_adds_the_reduction_term():
    n, p, gamma = 2**24, 8, 1 / 500e9
    sched = build("ring", p, n)
    got = replay(sched, star(p), n, gamma=gamma)
    assert got == pytest.approx(closed_form("ring", p, n, ALPHA, 1 / BW, gamma), rel=0.01)


def test_shared_pcie_switch_shows_contention():
    """workstation-4gpu: 4 GPUs under one PCIe switch. The ring matches the uncontended form,
    reduce-to-one's three copies share the root's link and take 3x the 'separate links' time."""
    from sim.hardware import preset
    m = preset("workstation-4gpu")
    n, p = 2**26, 4
    link = m.route(m.gpus[0], m.gpus[1])
    alpha = sum(l.latency for l, _ in link)
    beta = 1 / min(l.bandwidth for l, _ in link)
    ring_t = replay(build("ring", p, n), m, n)
    assert ring_t == pytest.approx(closed_form("ring", p, n, alpha, beta), rel=0.01)
    r1 = replay(build("reduce_to_one", p, n), m, n)
    separate = closed_form("reduce_to_one", p, n, alpha, beta, shared_port=False)
    shared = closed_form("reduce_to_one", p, n, alpha, beta, shared_port=True)
    assert r1 == pytest.approx(shared, rel=0.01) and r1 > 2.5 * separate


def test_memoised_rounds_do_not_change_the_answer():
    """Replaying round by round without the memo gives the same total (uneven ring segments)."""
    from sim.collectives.replay import round_durations
    p, n = 7, 1001
    sched = build("ring", p, n)
    total = replay(sched, star(p), n)
    one_by_one = 0.0
    for rnd in sched.rounds:
        sub = type(sched)("x", p, n, [rnd])
        one_by_one += float(round_durations(sub, star(p), n).sum())
    assert total == pytest.approx(one_by_one, rel=1e-12)
