"""sim.plan: the arithmetic against hand computation, and the ranking on cases whose answer is known."""
import math

import pytest

from sim.plan import Candidate, StepsCurve, StepTime, grid, make_plan, plan_row
from sim.plan.ranking import Plan

CURVE = StepsCurve(s_min=100, b_crit=1000, target="loss", rule="linear", base_learning_rate=0.1,
                   base_batch=100)


def test_steps_curve_by_hand():
    assert CURVE.steps(1000) == pytest.approx(200)            # 100 x (1 + 1000/1000)
    assert CURVE.steps(250) == pytest.approx(500)
    assert CURVE.learning_rate(1000) == pytest.approx(1.0)     # linear: 0.1 x 1000/100
    warm = StepsCurve(100, 1000, "loss", warmup_examples=8000, base_batch=100)
    assert warm.warmup_steps(1000) == 8 and warm.steps(1000) == pytest.approx(204)   # half of 8 steps
    assert warm.warmup_steps(3000) == 3                         # ceil(8000 / 3000)


def test_a_rate_above_the_stable_one_never_reaches_the_target():
    capped = StepsCurve(100, 1000, "loss", base_learning_rate=0.1, base_batch=100, max_learning_rate=1.0)
    assert capped.steps(1000) == pytest.approx(200)
    assert capped.steps(2000) == math.inf                       # linear rule gives 2.0 > 1.0


def _fixed(seconds):
    return lambda c: StepTime(seconds, seconds, 0.0, "measured")


def test_plan_row_sync_and_async_by_hand():
    sync = Candidate("dgx1-p100", 1, None, 8, "mirrored-nccl", 125)
    row = plan_row(sync, CURVE, StepTime(0.5, 0.4, 0.1, "simulated"), price=3.6)
    assert row.steps == pytest.approx(200) and row.seconds == pytest.approx(100)
    assert row.cost == pytest.approx(100 / 3600 * 8 * 3.6)
    assert row.asynchrony is None and row.learning_rate == pytest.approx(1.0)
    asyn = Candidate("dgx1-p100", 1, None, 8, "ps-async", 125)
    row = plan_row(asyn, CURVE, StepTime(0.5, 0.4, 0.1, "simulated"), price=3.6)
    # no stability edge known (max_learning_rate = inf): the equivalence alone, N S(N b) updates
    assert row.asynchrony.tau == pytest.approx(7)               # measured on lesson 07's simulator
    assert row.steps == pytest.approx(8 * CURVE.steps(1000))    # 8 workers' updates
    assert row.seconds == pytest.approx(1600 * 0.5 / 8)          # updates arrive 8 per step time
    assert row.learning_rate == pytest.approx(0.125)             # eta(N b) / N with momentum 0


def test_price_per_machine_and_bad_price():
    c = Candidate("big-basin", 1, None, 8, "mirrored-nccl", 125)
    assert plan_row(c, CURVE, StepTime(1, 1, 0, "x"), {"big-basin": 1.0}).cost == pytest.approx(200 / 3600 * 8)
    with pytest.raises(ValueError, match="big-basin"):
        plan_row(c, CURVE, StepTime(1, 1, 0, "x"), {"dgx1-p100": 1.0})
    with pytest.raises(ValueError, match="price"):
        plan_row(c, CURVE, StepTime(1, 1, 0, "x"), -1)


def test_the_fastest_is_not_the_most_gpus_past_the_critical_batch():
    """Steps stop falling past B_crit = 64 while the step grows with the devices: 8 GPUs win."""
    curve = StepsCurve(s_min=100, b_crit=64, target="loss")
    cands = [Candidate("dgx1-p100", n, "edr-ib" if n > 1 else None, 1 if n == 1 else 8, "mirrored-nccl", 64)
             for n in (1, 1, 8)]
    cands[1] = Candidate("dgx1-p100", 1, None, 8, "mirrored-nccl", 64)
    plan = make_plan(lambda c: StepTime(0.1 + 0.01 * c.devices, 0.1, 0.01 * c.devices, "measured"),
                     curve, cands, price=1.0)
    times = {r.candidate.devices: r.seconds for r in plan.rows}
    assert times[1] == pytest.approx(200 * 0.11) and times[8] == pytest.approx(112.5 * 0.18)
    assert times[64] == pytest.approx(100 * (1 + 64 / 4096) * 0.74)
    assert plan.fastest.candidate.devices == 8 == plan.rows[0].candidate.devices
    assert plan.cheapest.candidate.devices == 1
    by_cost = make_plan(lambda c: StepTime(0.1 + 0.01 * c.devices, 0, 0, "measured"), curve, cands, 1.0, "cost")
    assert [r.candidate.devices for r in by_cost.rows] == [1, 8, 64]


def test_within_budget_and_deadline_and_diverged_rows_last():
    curve = StepsCurve(100, 1000, "loss", base_learning_rate=0.1, base_batch=100, max_learning_rate=1.0)
    cands = [Candidate("dgx1-p100", 1, None, 8, "mirrored-nccl", b) for b in (25, 125, 250)]
    plan = make_plan(_fixed(36.0), curve, cands, price=1.0)
    assert [r.candidate.batch_per_device for r in plan.rows] == [125, 25, 250]   # 250 x 8: lr 2 diverges
    assert not plan.rows[-1].reaches
    # batch 1000: 200 steps x 36 s = 2 h, 16 device-hours; batch 200: 600 steps = 6 h, 48
    assert [r.candidate.batch_per_device for r in plan.within(budget=20)] == [125]
    assert [r.candidate.batch_per_device for r in plan.within(deadline_hours=7)] == [125, 25]
    assert plan.within(budget=10) == []


def test_model_mode_uses_sim_scaleout_scale():
    from sim.scaleout import scale
    c = grid(("dgx1-p100",), (4,), ("25gbe",), strategies=("ps-async",), batch_per_device=(64,))[0]
    row = make_plan("resnet50", "goyal-sgd", [c], price=2.0).rows[0]
    ref = scale("resnet50", "dgx1-p100", nodes=[4], network="25gbe", strategy="parameter-server",
                ps=4, batch_per_device=64, sync=False)[0]
    assert row.step.seconds == pytest.approx(ref["step_time_ms"] / 1e3)
    assert row.seconds == pytest.approx(row.steps * row.step.seconds / 32)
    assert row.sources["steps"] == "published" and row.sources["step"] == "simulated"


def test_grid_order_defaults_and_errors():
    cands = grid(("dgx1-p100",), (1, 2), ("10gbe", "edr-ib"), strategies=("mirrored-nccl", "ps-sync"))
    assert len(cands) == 2 + 4                   # one node uses no network: listed once per strategy
    assert {c.ps for c in cands if c.strategy == "ps-sync"} == {1, 2}      # one ps task per node
    assert grid(nodes=(2,))[0].network == "edr-ib"                          # the node's own network
    one_node = grid(nodes=(1, 2), strategies=("mirrored-hierarchical", "central-storage", "mirrored-ring"))
    assert [(c.nodes, c.strategy) for c in one_node] == [
        (1, "mirrored-hierarchical"), (1, "central-storage"), (1, "mirrored-ring"), (2, "mirrored-ring")]
    with pytest.raises(ValueError, match="mirrored-nccl"):
        grid(strategies=("mirrored",))
    with pytest.raises(ValueError, match="at most 8"):
        grid(gpus=(9,))
    with pytest.raises(ValueError, match="nodes"):
        grid(nodes=(0,))


def test_table_names_every_source():
    from sim.plan.table import render
    plan = Plan([plan_row(Candidate("dgx1-p100", 1, None, 8, "mirrored-nccl", 125), CURVE,
                          StepTime(0.5, 0.4, 0.1, "simulated"), 1.0)], CURVE)
    text = render(plan)
    assert "1,000" in text and "1.7 min" in text            # batch; 200 steps x 0.5 s = 100 s
    assert "fitted" in text and "simulated" in text and "cost = time × GPUs × price" in text
    assert max(len(line) for line in text.splitlines()[:2]) <= 100   # fits JupyterLab at 1280x720


@pytest.mark.parametrize("lang", ["en", "zh", "pt"])
def test_table_step_column_lines_up_under_its_header(lang):
    """The ms-per-step numbers end where their header ends, counting a CJK character as two
    columns (zh "每步（ms）" is wider than the column was)."""
    import unicodedata

    import sim
    from sim.i18n import t
    from sim.plan.table import render
    plan = Plan([plan_row(Candidate("dgx1-p100", 1, None, 8, "mirrored-nccl", 125), CURVE,
                          StepTime(0.5, 0.4, 0.1, "simulated"), 1.0)], CURVE)
    sim.setup(lang)
    try:
        header, row = render(plan).splitlines()[:2]
        name = t("plan.columns").split("|")[6]
    finally:
        sim.setup("en")

    def width(text):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    def at(line, column):               # the character that starts at this display column
        for i in range(len(line)):
            if width(line[:i]) == column:
                return line[i]
        return None

    end = width(header[:header.index(name) + len(name)])
    assert at(row, end - 1).isdigit() and at(row, end) == " ", (header, row)


def test_text_table_without_widths_fits_every_header():
    """widths=None: each column as wide as its widest cell, the header included (a CJK character
    counts two), so a header longer in one language still stands over its numbers."""
    from sim.plan.table import text_table
    text = text_table(["运行", "预测时间（ms）", "误差"], [["最佳方案", "0.78", "+0%"]], left=(0,))
    assert text.splitlines() == ["运行     预测时间（ms） 误差",
                                 "最佳方案           0.78  +0%"]


def test_text_table_widens_a_given_width_to_its_header():
    """Lesson 11's tables give widths for the English headers; a longer zh or pt header widens
    its column, so its numbers still end under it."""
    from sim.plan.table import text_table
    text = text_table(["批次", "同步（步/秒）"], [["256", "12.5"]], (6, 6))
    assert text.splitlines() == ["  批次 同步（步/秒）",
                                 "   256          12.5"]
