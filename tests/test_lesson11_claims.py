"""What lesson 11's text says about its plans, checked against sim.plan, so a change to the step
model (sim.scaleout) that breaks a sentence fails here and the lesson gets re-read."""
import pytest

from sim.plan import CURVES, grid, make_plan
from sim.course.plots.plan_view import plan_view

CURVE = CURVES["resnet50"]


def _rows(nodes, network, strategy, batch=64):
    plan = make_plan("resnet50", CURVE, grid(("dgx1-p100",), nodes, (network,), strategies=(strategy,),
                                             batch_per_device=(batch,)), price=2.0)
    return {r.candidate.devices: r for r in plan.rows}


def test_epochs_of_the_curve():
    epochs = {b: CURVE.steps(b) * b / 1_281_167 for b in (256, 16384, 65536)}
    assert epochs[256] == pytest.approx(93.9, abs=0.05) and epochs[16384] == pytest.approx(182.5, abs=0.05)
    assert 1 - CURVE.steps(65536) / CURVE.steps(16384) == pytest.approx(0.38, abs=0.005)


def test_past_the_critical_batch_twice_the_gpus_buy_a_quarter():
    ib = _rows((32, 64), "edr-ib", "mirrored-nccl")
    gain = 1 - ib[512].hours / ib[256].hours
    assert 0.2 < gain < 0.3 and ib[512].cost > 1.4 * ib[256].cost


def test_more_gpus_slower_with_sync_parameter_servers_on_10gbe():
    ps = _rows((1, 2), "10gbe", "ps-sync")
    assert ps[16].hours > 1.2 * ps[8].hours
    assert ps[16].step.seconds > 2 * ps[8].step.seconds


def test_async_beats_sync_parameter_servers_by_7_to_16_percent():
    for net in ("10gbe", "edr-ib"):
        sync, asyn = _rows((2, 16), net, "ps-sync"), _rows((2, 16), net, "ps-async")
        for devices in (16, 128):
            assert 0.06 < 1 - asyn[devices].hours / sync[devices].hours < 0.17, (net, devices)
            assert asyn[devices].staleness_steps > 0


def test_the_cheapest_is_one_server_and_the_fastest_fits_500_in_6_hours():
    plan = make_plan("resnet50", CURVE, grid(("dgx1-p100",), (1, 2, 4, 8, 16, 32), ("10gbe", "edr-ib"),
                                             strategies=("mirrored-nccl", "ps-sync", "ps-async"),
                                             batch_per_device=(32, 64)), price=2.0)
    assert plan.cheapest.candidate.nodes == 1 and plan.fastest.candidate.devices == 256
    assert plan.within(500, 6)[0] == plan.fastest and plan.within(250) == []


def test_the_demo_marks_the_fastest_plan_that_fits():
    view = plan_view(budget=500, deadline_hours=6)
    assert view["best"] is view["fits"][0]
    assert all(r.cost <= 500 and r.hours <= 6 for r in view["fits"])
    assert min(r.hours for r in view["fits"]) == view["best"].hours
    assert plan_view(budget=300, deadline_hours=6)["best"] is None      # the lesson's "try 300"
    best = {b: plan_view(500, 6, b)["best"] for b in (8192, 4096)}
    assert view["best"].candidate.devices == 128 and best[8192].candidate.devices == 64
    assert best[4096] is None
    late = plan_view(500, 24, 4096)["best"]
    assert late.candidate.devices == 32 and 6.5 < late.hours < 7.5
