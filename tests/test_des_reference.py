"""The simulator against an independent, slow, pure-Python fluid model.

Random copies (random pairs, sizes and start times, some batched together) on machines with a
shared uplink and with multi-hop routes of mixed bandwidths: every finish time must match a
straightforward event loop that recomputes max-min fair rates by progressive filling at every
start and finish. This exercises the simulator's shortcuts (cached rates on an idle network,
flows placed before their latency has elapsed, groups that share no link).
"""
import pytest
from hypothesis import given, settings, strategies as st

from sim.des import Simulator
from sim.hardware import preset

MACHINES = {name: preset(name) for name in ("workstation-4gpu", "dgx1-v100")}


def max_min(flows, resources, capacity):
    rate, left, unfrozen = {}, dict(capacity), set(flows)
    while unfrozen:
        count = {}
        for f in unfrozen:
            for r in resources[f]:
                count[r] = count.get(r, 0) + 1
        share = {r: left[r] / c for r, c in count.items()}
        level = min(share.values())
        tight = {r for r, v in share.items() if v <= level * (1 + 1e-12)}
        newly = [f for f in unfrozen if tight & set(resources[f])]
        for f in newly:
            rate[f] = level
            for r in resources[f]:
                left[r] -= level
        unfrozen -= set(newly)
    return rate


def reference(machine, copies):
    """copies: (submit time, src, dst, nbytes) -> finish time of each."""
    links = {link: i for i, link in enumerate(machine.links)}
    capacity = {2 * i + d: link.bandwidth for link, i in links.items() for d in (0, 1)}
    start, resources, left = {}, {}, {}
    for k, (t0, src, dst, nbytes) in enumerate(copies):
        hops = machine.route(src, dst)
        start[k] = t0 + sum(link.latency for link, _ in hops)
        resources[k] = [2 * links[link] + d for link, d in hops]
        left[k] = nbytes
    finish, active, now = {}, set(), 0.0
    waiting = sorted(start, key=start.get)
    while waiting or active:
        rate = max_min(active, resources, capacity) if active else {}
        t_next = min([start[k] for k in waiting] + [now + left[k] / rate[k] for k in active])
        for k in active:
            left[k] -= rate[k] * (t_next - now)
        now = t_next
        for k in [k for k in active if left[k] <= 1e-9 * copies[k][3]]:
            finish[k] = now
            active.discard(k)
        while waiting and start[waiting[0]] <= now:
            active.add(waiting.pop(0))
    return finish


copy_lists = st.lists(
    st.tuples(st.sampled_from([0.0, 0.0, 1e-6, 2e-6, 1e-3, 4e-3]),   # submit time
              st.integers(0, 7), st.integers(0, 7),                  # GPU indices
              st.sampled_from([1e5, 1e6, 3e6, 1e7, 6e7])),           # bytes
    min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(MACHINES)), copy_lists, st.booleans())
def test_finish_times_match_a_pure_python_fluid_model(name, raw, batch_same_time):
    machine = MACHINES[name]
    gpus = machine.gpus
    copies = [(t0, gpus[a % len(gpus)], gpus[b % len(gpus)], n) for t0, a, b, n in raw
              if a % len(gpus) != b % len(gpus)]
    if not copies:
        return
    expected = reference(machine, copies)
    sim = Simulator(machine)
    ends = {}

    def submit(t0, group):
        yield sim.timeout(t0)
        yield sim.transfers([copies[k][1:] for k in group], label=",".join(map(str, group)))

    by_time = {}
    for k, c in enumerate(copies):
        by_time.setdefault(c[0], []).append(k)
    for t0, ks in by_time.items():
        for group in ([ks] if batch_same_time else [[k] for k in ks]):
            sim.process(submit(t0, group))
    sim.run()
    for ev in sim.trace:
        for position, k in enumerate(map(int, ev.name.split(","))):
            if copies[k][1:] == (machine.device(ev.where.split("→")[0]),
                                 machine.device(ev.where.split("→")[1]), ev.nbytes):
                ends.setdefault(k, set()).add(ev.end)
    for k, t_end in expected.items():
        assert any(e == pytest.approx(t_end, rel=1e-9) for e in ends[k]), (k, ends[k], t_end)


def test_a_copy_joining_before_another_has_paid_its_latency():
    # A: submitted at 0 with 1 ms latency; B: submitted at 0.5 ms. Both 1 MB over 1 GB/s.
    from sim.hardware import Machine
    m = Machine("pair")
    a, b = m.add_device("GPU"), m.add_device("GPU")
    m.connect(a, b, 1e9, 1e-3)
    sim = Simulator(m)

    def late():
        yield sim.timeout(0.5e-3)
        yield sim.transfer(a, b, 1e6, "B")

    sim.transfer(a, b, 1e6, "A")
    sim.process(late())
    sim.run()
    ends = {e.name: e.end for e in sim.trace}
    # A alone 1.0-1.5 ms (0.5 MB), shared until it ends at 2.5 ms; B alone to 3.0 ms
    assert ends["A"] == pytest.approx(2.5e-3, rel=1e-12)
    assert ends["B"] == pytest.approx(3.0e-3, rel=1e-12)
