"""Simulators of one machine sharing their route plans (``route_plans=``): the same times as
simulators that route on their own, and each list of pairs routed once among them."""
from sim.des import Simulator
from sim.hardware import preset


def _time(machine, items, plans=None):
    sim = Simulator(machine, route_plans=plans)
    sim.transfers(items)
    sim.run()
    return sim.now


def test_shared_route_plans_give_the_same_times_and_route_once():
    m = preset("dgx1-v100")
    gpus, cpu = m.gpus, m.devices_of("CPU")[0]
    shared: dict = {}
    for nbytes in (1e3, 1e6, 1e8):
        items = [(g, cpu, nbytes) for g in gpus]
        assert _time(m, items, shared) == _time(m, items)
    assert len(shared) == 1
    first = next(iter(shared.values()))
    _time(m, [(g, cpu, 5e5) for g in gpus], shared)
    assert next(iter(shared.values())) is first
