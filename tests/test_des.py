"""sim.des: transfers and compute take exactly the closed-form times."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.des import Simulator, Slowdown
from sim.des.flows import max_min_rates
from sim.hardware import Machine, preset

REL = 1e-12


def pair(bandwidth, latency):
    m = Machine("pair")
    a, b = m.add_device("GPU"), m.add_device("GPU")
    m.connect(a, b, bandwidth, latency)
    return m


def chain(hops):
    """CPU:0 - sw0 - ... - CPU:1 with the given (bandwidth, latency) per hop."""
    m = Machine("chain")
    nodes = [m.add_device("CPU")] + [m.add_node(f"sw{i}") for i in range(len(hops) - 1)] \
        + [m.add_device("CPU")]
    for (bw, lat), u, v in zip(hops, nodes, nodes[1:]):
        m.connect(u, v, bw, lat)
    return m


@settings(max_examples=60, deadline=None)
@given(st.floats(1, 1e11), st.floats(1e3, 1e12), st.floats(0, 1e-2))
def test_one_transfer_takes_latency_plus_size_over_bandwidth(nbytes, bandwidth, latency):
    sim = Simulator(pair(bandwidth, latency))
    sim.transfer("GPU:0", "GPU:1", nbytes)
    sim.run()
    assert sim.now == pytest.approx(latency + nbytes / bandwidth, rel=REL)
    (ev,) = sim.trace
    assert (ev.kind, ev.start, ev.status) == ("transfer", 0.0, "ok")
    assert ev.end == pytest.approx(latency + nbytes / bandwidth, rel=REL)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 16), st.floats(1, 1e10), st.floats(1e6, 1e11), st.floats(0, 1e-3),
       st.booleans())
def test_k_equal_transfers_sharing_a_link_take_k_times_as_long(k, nbytes, bw, lat, batched):
    sim = Simulator(pair(bw, lat))
    if batched:
        sim.transfers([("GPU:0", "GPU:1", nbytes)] * k)
    else:
        for _ in range(k):
            sim.transfer("GPU:0", "GPU:1", nbytes)
    sim.run()
    assert sim.now == pytest.approx(lat + k * nbytes / bw, rel=1e-9)
    assert all(e.end == pytest.approx(lat + k * nbytes / bw, rel=1e-9) for e in sim.trace)


def test_opposite_directions_do_not_share():
    sim = Simulator(pair(1e9, 0.0))
    sim.transfers([("GPU:0", "GPU:1", 1e9), ("GPU:1", "GPU:0", 1e9)])
    sim.run()
    assert sim.now == pytest.approx(1.0, rel=REL)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(1e6, 1e11), st.floats(0, 1e-3)), min_size=1, max_size=5),
       st.floats(1, 1e10))
def test_a_multi_hop_route_adds_each_hops_latency(hops, nbytes):
    sim = Simulator(chain(hops))
    sim.transfer("CPU:0", "CPU:1", nbytes)
    sim.run()
    expected = sum(lat for _, lat in hops) + nbytes / min(bw for bw, _ in hops)
    assert sim.now == pytest.approx(expected, rel=REL)


def test_rates_are_recomputed_when_a_flow_finishes():
    # S and 2S share a link of B: S ends at 2S/B; then 2S has S left at full B: ends at 3S/B.
    sim = Simulator(pair(1e9, 0.0))
    sim.transfer("GPU:0", "GPU:1", 1e9, "small")
    sim.transfer("GPU:0", "GPU:1", 2e9, "big")
    sim.run()
    ends = {e.name: e.end for e in sim.trace}
    assert ends == {"small": pytest.approx(2.0, rel=REL), "big": pytest.approx(3.0, rel=REL)}


def test_a_late_flow_slows_an_early_one():
    sim = Simulator(pair(1e9, 0.0))

    def late():
        yield sim.timeout(0.5)
        yield sim.transfer("GPU:0", "GPU:1", 0.5e9, "late")

    sim.transfer("GPU:0", "GPU:1", 1e9, "early")
    sim.process(late())
    sim.run()
    ends = {e.name: e.end for e in sim.trace}
    # early: 0.5 GB alone, then 0.5 GB at half speed -> 1.5 s; late: 0.5 GB at half speed
    assert ends["early"] == pytest.approx(1.5, rel=REL)
    assert ends["late"] == pytest.approx(1.5, rel=REL)


def test_max_min_fairness_gives_leftover_to_the_unconstrained_flow():
    # resource 0 (cap 10) is crossed by flows 0 and 1; resource 1 (cap 2) by flow 1 only.
    rates = max_min_rates(np.array([10.0, 2.0]), np.array([0, 1, 1]), np.array([0, 0, 1]), 2)
    assert rates.tolist() == [8.0, 2.0]


def test_a_shared_pcie_switch_slows_everyone():
    sim = Simulator(preset("workstation-4gpu"))
    nbytes = 1.2e9
    sim.transfers([(f"/gpu:{g}", "/cpu:0", nbytes) for g in range(4)])
    sim.run()
    assert sim.now == pytest.approx(1e-6 + 4 * nbytes / 12e9, rel=REL)


def test_batched_and_single_transfers_agree():
    m = preset("dgx1-v100")
    items = [(f"/gpu:{i}", f"/gpu:{(i + 1) % 8}", 1e8 * (i + 1)) for i in range(8)]
    one = Simulator(m)
    one.transfers(items)
    one.run()
    many = Simulator(m)
    for it in items:
        many.transfer(*it)
    many.run()
    assert [e.end for e in one.trace] == pytest.approx([e.end for e in many.trace], rel=1e-12)


def test_transfers_event_fires_when_all_are_done():
    sim = Simulator(pair(1e9, 1e-6))
    seen = []

    def proc():
        yield sim.transfers([("GPU:0", "GPU:1", 1e9), ("GPU:1", "GPU:0", 3e9)])
        seen.append(sim.now)

    sim.process(proc())
    sim.run()
    assert seen == [pytest.approx(1e-6 + 3.0, rel=REL)]


def test_same_device_and_zero_bytes():
    sim = Simulator(pair(1e9, 2e-6))
    sim.transfers([("GPU:0", "GPU:0", 1e9), ("GPU:0", "GPU:1", 0)])
    sim.run()
    assert [e.end for e in sim.trace] == [0.0, pytest.approx(2e-6)]


def test_compute_uses_peak_flops_and_runs_in_order_on_one_device():
    sim = Simulator("dgx-a100")
    sim.compute("/gpu:0", flops=19.5e12, label="a")
    sim.compute("/gpu:0", flops=312e12, dtype="bfloat16", label="b")
    sim.compute("/gpu:1", seconds=0.25, label="c")
    sim.run()
    got = {e.name: (e.start, e.end) for e in sim.trace}
    assert got == {"a": (0.0, pytest.approx(1.0)), "b": (pytest.approx(1.0), pytest.approx(2.0)),
                   "c": (0.0, 0.25)}


def test_a_constant_straggler_takes_longer():
    sim = Simulator("workstation-4gpu", stragglers={"/gpu:3": 2.0})
    for g in range(4):
        sim.compute(f"/gpu:{g}", seconds=1.0)
    sim.run()
    assert [e.end for e in sim.trace] == [1.0, 1.0, 1.0, 2.0]


def _noisy_run(seed):
    sim = Simulator("dgx1-v100", seed=seed,
                    stragglers={"*": Slowdown(sigma=0.2, hiccup_prob=0.1, hiccup_factor=3)})

    def step(g):
        for _ in range(5):
            yield sim.compute(f"/gpu:{g}", seconds=1e-3)
            yield sim.transfer(f"/gpu:{g}", f"/gpu:{(g + 1) % 8}", 1e7)

    for g in range(8):
        sim.process(step(g))
    sim.run()
    return list(sim.trace)


def test_same_seed_same_trace_other_seed_other_trace():
    assert _noisy_run(3) == _noisy_run(3)
    assert _noisy_run(3) != _noisy_run(4)


def test_ring_rounds_match_the_alpha_beta_closed_form():
    # 8 GPUs on NVSwitch: every ring step is one hop with no sharing.
    m = preset("dgx-a100")
    p, n = 8, 2**28
    sim = Simulator(m)
    gpus = m.gpus
    items = [(gpus[i], gpus[(i + 1) % p], n / p) for i in range(p)]

    def ring():
        for _ in range(2 * (p - 1)):
            yield sim.transfers(items)

    sim.process(ring())
    sim.run()
    alpha, beta = 0.6e-6, 1 / 240e9
    assert sim.now == pytest.approx(2 * (p - 1) * alpha + 2 * (p - 1) / p * n * beta, rel=1e-9)


def test_each_device_draws_its_own_slowdowns():
    def factors(devices):
        sim = Simulator("workstation-4gpu", seed=7, stragglers={"*": Slowdown(sigma=0.3)})
        for _ in range(5):
            for d in devices:
                sim.compute(d, seconds=1.0)
        sim.run()
        return [e.end - e.start for e in sim.trace if e.where == "/gpu:0"]

    assert factors(["/gpu:0"]) == factors(["/gpu:0", "/gpu:1", "/gpu:2"])
    assert len(set(factors(["/gpu:0"]))) == 5


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(1.0, 100.0), min_size=1, max_size=5).flatmap(
    lambda caps: st.tuples(st.just(caps), st.lists(
        st.sets(st.integers(0, len(caps) - 1), min_size=1), min_size=1, max_size=8))))
def test_max_min_rates_are_feasible_and_every_flow_has_a_bottleneck(problem):
    caps, routes = problem
    inc_f = np.array([f for f, r in enumerate(routes) for _ in r])
    inc_r = np.array([x for r in routes for x in sorted(r)])
    rates = max_min_rates(np.array(caps), inc_f, inc_r, len(routes))
    load = np.bincount(inc_r, weights=rates[inc_f], minlength=len(caps))
    assert (load <= np.array(caps) * (1 + 1e-9)).all()
    for f, route in enumerate(routes):
        # a bottleneck: a full resource on which no flow gets more than f does
        assert any(load[r] >= caps[r] * (1 - 1e-9)
                   and all(rates[g] <= rates[f] * (1 + 1e-9)
                           for g, other in enumerate(routes) if r in other)
                   for r in route), (f, rates, load)


def test_a_bare_slowdown_applies_to_every_device():
    sim = Simulator("workstation-4gpu", stragglers=Slowdown(factor=3.0))
    sim.compute("/gpu:2", seconds=1.0)
    sim.compute("/cpu:0", seconds=1.0)
    sim.run()
    assert [e.end for e in sim.trace] == [3.0, 3.0]
