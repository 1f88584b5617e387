"""What lesson 11's text says about its plans, checked against sim.plan at the precision the text
quotes, so a change to the step model (sim.scaleout) that breaks a sentence fails here and the
lesson gets re-read. One test per paragraph of the lesson, in its order."""
import pytest

from sim.plan import CURVES, grid, make_plan
from sim.course.plots.plan_view import plan_view

CURVE = CURVES["resnet50"]


def _rows(nodes, network, strategy, batch=64):
    plan = make_plan("resnet50", CURVE, grid(("dgx1-p100",), nodes, (network,), strategies=(strategy,),
                                             batch_per_device=(batch,)), price=2.0)
    return {r.candidate.devices: r for r in plan.rows}


@pytest.fixture(scope="module")
def section2():
    """Section 2's plan, as the lesson builds it."""
    return make_plan("resnet50", CURVE, grid(("dgx1-p100",), (1, 2, 4, 8, 16, 32), ("10gbe", "edr-ib"),
                                             strategies=("mirrored-nccl", "ps-sync", "ps-async"),
                                             batch_per_device=(32, 64)), price=2.0)


def test_epochs_of_the_curve():
    epochs = {b: CURVE.steps(b) * b / 1_281_167 for b in (256, 16384, 65536)}
    assert epochs[256] == pytest.approx(93.9, abs=0.05) and epochs[16384] == pytest.approx(182.5, abs=0.05)
    assert 1 - CURVE.steps(65536) / CURVE.steps(16384) == pytest.approx(0.38, abs=0.005)


def test_the_fastest_is_async_on_256_gpus_and_the_cheapest_one_server(section2):
    fastest, cheapest = section2.fastest, section2.cheapest
    c = fastest.candidate
    assert (c.devices, c.network, c.strategy, c.batch_per_device) == (256, "edr-ib", "ps-async", 32)
    assert round(fastest.seconds / 60) == 52 and round(fastest.cost) == 447
    nccl = section2.rows[1]
    assert (nccl.candidate.strategy, nccl.candidate.devices, nccl.candidate.batch_per_device) == \
        ("mirrored-nccl", 256, 32)
    assert round(nccl.seconds / 60) == 56 and round(nccl.cost) == 481
    assert round(nccl.seconds / 60) - round(fastest.seconds / 60) == 4          # "four minutes behind"
    assert cheapest.candidate.nodes == 1 and round(cheapest.hours, 1) == 19.1 and round(cheapest.cost) == 305


def test_past_the_critical_batch_twice_the_gpus_buy_a_quarter():
    ib = _rows((32, 64), "edr-ib", "mirrored-nccl")
    assert (round(ib[512].hours, 2), round(ib[256].hours, 2)) == (0.90, 1.20)
    assert round(1 - ib[512].hours / ib[256].hours, 2) == 0.26
    assert (round(ib[512].cost), round(ib[256].cost)) == (917, 616)


def test_the_cheapest_plan_is_the_smallest():
    ib = _rows((1, 2, 4, 8, 16, 32, 64), "edr-ib", "mirrored-nccl")
    costs = [ib[d].cost for d in sorted(ib)]
    assert costs == sorted(costs)


def test_more_gpus_slower_with_sync_parameter_servers_on_10gbe():
    ps = _rows((1, 2, 4), "10gbe", "ps-sync")
    assert (round(ps[8].hours, 1), round(ps[16].hours, 1), round(ps[32].hours, 1)) == (19.4, 23.8, 18.8)
    assert (round(ps[8].step.seconds * 1e3), round(ps[16].step.seconds * 1e3)) == (292, 698)


def test_async_halves_the_time_on_10gbe_and_ties_on_infiniband():
    for devices, sync_h, async_h in ((16, 23.8, 11.9), (128, 7.8, 3.9)):
        sync, asyn = _rows((devices // 8,), "10gbe", "ps-sync")[devices], \
            _rows((devices // 8,), "10gbe", "ps-async")[devices]
        assert (round(sync.hours, 1), round(asyn.hours, 1)) == (sync_h, async_h)
        # the mechanism: a synchronous step is its reads then its pushes, an asynchronous one
        # the pushes alone (both directions of the servers' links busy at once)
        assert sync.step.seconds == pytest.approx(2 * asyn.step.seconds, rel=0.02)
        assert asyn.staleness_steps > 0
    for devices in (16, 128):
        sync, asyn = _rows((devices // 8,), "edr-ib", "ps-sync")[devices], \
            _rows((devices // 8,), "edr-ib", "ps-async")[devices]
        assert abs(asyn.seconds - sync.seconds) < 60                               # "to the minute"
        assert asyn.step.seconds == pytest.approx(asyn.step.compute, rel=1e-3)     # all hidden
    ib = _rows((16,), "edr-ib", "ps-sync")[128]
    assert round(ib.step.seconds * 1e3) == 292 and round(ib.step.communication * 1e3) == 65


def test_an_async_step_is_never_longer_so_async_never_loses_on_time(section2):
    by = {(r.candidate.nodes, r.candidate.network, r.candidate.batch_per_device, r.candidate.strategy): r
          for r in section2.rows}
    for (nodes, net, batch, strategy), row in by.items():
        if strategy == "ps-async":
            sync = by[(nodes, net, batch, "ps-sync")]
            assert row.step.seconds <= sync.step.seconds * (1 + 1e-9)
            assert row.seconds <= sync.seconds * (1 + 1e-9)


def test_with_32_images_async_is_ahead_on_infiniband_and_mirrored_is_behind():
    sync, asyn = _rows((32,), "edr-ib", "ps-sync", 32)[256], _rows((32,), "edr-ib", "ps-async", 32)[256]
    assert round(1 - asyn.hours / sync.hours, 2) == 0.11
    assert round(asyn.step.seconds * 1e3) == 146 and round(sync.step.seconds * 1e3) == 164
    nccl, ps = _rows((16,), "edr-ib", "mirrored-nccl")[128], _rows((16,), "edr-ib", "ps-sync")[128]
    assert round(ps.step.seconds * 1e3, 1) == 292.3
    assert round(nccl.step.seconds * 1e3, 1) == 303.5 and round(nccl.step.seconds / ps.step.seconds - 1, 2) == 0.04


def test_the_fastest_fits_500_in_6_hours_and_250_buys_nothing(section2):
    assert section2.within(500, 6)[0] == section2.fastest and section2.within(250) == []


def test_the_demo_marks_the_fastest_plan_that_fits():
    view = plan_view(budget=500, deadline_hours=6)
    assert view["best"] is view["fits"][0]
    assert all(r.cost <= 500 and r.hours <= 6 for r in view["fits"])
    assert min(r.hours for r in view["fits"]) == view["best"].hours
    assert view["best"].candidate.devices == 128 and round(view["best"].hours, 1) == 1.7
    tie = view["fits"][1]
    assert {view["best"].candidate.strategy, tie.candidate.strategy} == {"ps-sync", "ps-async"}
    assert round(tie.hours, 1) == 1.7 and round(tie.cost) == round(view["best"].cost) == 447
    assert plan_view(budget=300, deadline_hours=6)["best"] is None      # the lesson's "try 300"
    assert round(view["plan"].cheapest.cost) == 310
    best = {b: plan_view(500, 6, b)["best"] for b in (8192, 4096)}
    assert best[8192].candidate.devices == 64
    assert best[4096] is None
    late = plan_view(500, 24, 4096)["best"]
    assert late.candidate.devices == 32 and round(late.hours) == 7
