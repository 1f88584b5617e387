"""The classroom demo: every candidate plan as a point (time to target, cost), the budget and the
deadline as lines, the plans that fit both shaded, the best of them marked, and the fastest
fitting plans as bars. ``plan_view`` is the plain function the tests call; ``plan_widget`` a thin
ipywidgets layer (budget, deadline, recipe) over it, which draws the figure once. Sized for a
1280x720 projector: 12 x 5 inches, no text under 12 points, the legend outside the data."""
from __future__ import annotations

from sim.i18n import number, t
from sim.plan.candidates import grid
from sim.plan.ranking import make_plan

COLORS = {"mirrored-nccl": "#4C72B0", "mirrored-ring": "#64B5CD", "mirrored-hierarchical": "#8172B2",
          "central-storage": "#CCB974", "ps-sync": "#C44E52", "ps-async": "#DD8452"}
DEMO_GRID = dict(machines=("dgx1-p100",), nodes=(1, 2, 4, 8, 16, 32), networks=("10gbe", "edr-ib"),
                 strategies=("mirrored-nccl", "ps-sync", "ps-async"), batch_per_device=(64,))


def plan_view(budget: float = 500, deadline_hours: float = 6, recipe: str = "goyal-sgd",
              price: float = 2.0, rank_by: str = "time") -> dict:
    """The ResNet-50 plan over the demo grid, for one budget, deadline and recipe."""
    plan = make_plan("resnet50", recipe, grid(**DEMO_GRID), price, rank_by)
    fits = plan.within(budget, deadline_hours)
    return {"plan": plan, "fits": fits, "best": fits[0] if fits else None, "budget": budget,
            "deadline": deadline_hours, "recipe": recipe}


def _name(row) -> str:
    c = row.candidate
    return t("plan.demo_bar", devices=c.devices, net=c.network or "", how=c.short_how()).strip()


def _legend(strategy: str) -> str:
    return t(f"plan.demo_strategy_{strategy}")


def draw_view(view: dict):
    import matplotlib.pyplot as plt
    from sim.course.plots import setup_fonts
    setup_fonts()
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), layout="constrained",
                                      gridspec_kw={"width_ratios": [1, 1.1]})
    rows = [r for r in view["plan"].rows if r.reaches]
    for strategy, color in COLORS.items():
        mine = [r for r in rows if r.candidate.strategy == strategy]
        if mine:
            left.scatter([r.hours for r in mine], [r.cost for r in mine], s=[20 + 3 * r.candidate.devices ** 0.8
                         for r in mine], color=color, alpha=0.8, label=_legend(strategy))
    from matplotlib.ticker import FuncFormatter, LogLocator
    left.set_xscale("log")
    left.set_yscale("log")
    for axis in (left.xaxis, left.yaxis):
        axis.set_major_locator(LogLocator(subs=(1, 2, 5)))
        axis.set_major_formatter(FuncFormatter(lambda v, _: number(v, ",.4g")))
        axis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    left.axvline(view["deadline"], color="#333333", ls="--", lw=1.5)
    left.axhline(view["budget"], color="#333333", ls=":", lw=1.5)
    x0, _ = left.get_xlim()
    y0, _ = left.get_ylim()
    left.fill_between([x0, view["deadline"]], y0, view["budget"], color="#55A868", alpha=0.15)
    best = view["best"]
    if best is not None:
        left.scatter([best.hours], [best.cost], marker="*", s=500, color="#55A868", edgecolor="black",
                     zorder=5, label=t("plan.demo_best"))
    left.set_xlabel(t("plan.demo_axis_hours"), fontsize=13)
    left.set_ylabel(t("plan.demo_axis_cost"), fontsize=13)
    left.tick_params(labelsize=12)
    left.legend(fontsize=12, loc="upper left", bbox_to_anchor=(0, -0.14), ncol=2, frameon=False)
    fig.suptitle(t("plan.demo_title", budget=view["budget"], hours=view["deadline"],
                   recipe=view["recipe"]), fontsize=13)
    top = view["fits"][:6]
    if top:
        right.barh(range(len(top))[::-1], [r.hours for r in top],
                   color=[COLORS[r.candidate.strategy] for r in top])
        longest = max(r.hours for r in top)
        for i, r in zip(range(len(top))[::-1], top):      # past the bar's end, never over it
            right.text(r.hours + 0.03 * longest, i, _name(r) + "   " +
                       t("plan.demo_bar_value", hours=r.hours, cost=r.cost), va="center", fontsize=12)
        right.set_yticks([])
        right.set_xlim(0, longest * 4.6)
        right.set_xlabel(t("plan.demo_axis_hours"), fontsize=13)
        right.tick_params(labelsize=12)
        right.set_title(t("plan.demo_fits", n=len(view["fits"]), total=len(rows)), fontsize=13)
    else:
        right.axis("off")
        right.text(0.5, 0.5, t("plan.nothing_fits"), ha="center", va="center", fontsize=14)
    return fig


def plan_widget(recipe: str = "mlperf-lars"):
    """Budget, deadline and recipe controls that redraw both pictures (the figure is drawn once,
    under them)."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    from sim.plan.recipes import RECIPES
    style = {"description_width": "initial"}
    layout = W.Layout(width="380px")
    budget = W.SelectionSlider(options=[(number(v, ",.0f"), v) for v in
                                        (100, 200, 300, 400, 500, 700, 1000, 1500, 2500)], value=500,
                               description=t("plan.demo_budget"), style=style, layout=layout)
    deadline = W.SelectionSlider(options=[(number(v, "g"), v) for v in (0.5, 1, 2, 3, 4, 6, 8, 12, 24)],
                                 value=6, description=t("plan.demo_deadline"), style=style, layout=layout)
    resnet = [name for name, r in RECIPES.items() if r.model == "resnet50"]    # the demo plans ResNet-50
    chooser = W.Dropdown(options=resnet, value=recipe, description=t("plan.demo_recipe"),
                        style=style, layout=W.Layout(width="300px"))
    out = W.Output()

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            draw_view(plan_view(budget.value, deadline.value, chooser.value))
            plt.show()

    for w in (budget, deadline, chooser):
        w.observe(redraw, names="value")
    redraw()
    return W.VBox([W.HBox([budget, deadline, chooser]), out])
