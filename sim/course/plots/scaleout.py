"""Pictures of scaling, in the course language: the scaling curve and one step's timeline."""
from __future__ import annotations

from sim.i18n import number, t


def draw_scaling(rows: list, ax=None, title: str | None = None):
    """Samples/s against devices, with the ideal (linear) line and each point's efficiency."""
    import matplotlib.pyplot as plt
    from sim.course.plots import setup_fonts
    setup_fonts()
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    else:
        fig = ax.figure
    devices = [r["devices"] for r in rows]
    rate = [r["samples_per_s"] for r in rows]
    one = rows[0]["samples_per_s"] / rows[0]["devices"] / rows[0]["efficiency"]
    ax.plot(devices, [d * one for d in devices], "--", color="#999999", label=t("scale.ideal"))
    ax.plot(devices, rate, "o-", color="#4C72B0", label=t("scale.simulated"))
    for d, r, row in zip(devices, rate, rows):
        ax.annotate(number(row["efficiency"], ".0%"), (d, r), textcoords="offset points", xytext=(0, 6),
                    ha="center", fontsize=8)
    from matplotlib.ticker import FuncFormatter
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(devices)
    for axis in (ax.xaxis, ax.yaxis):      # 16,384 / 16.384: grouped as the language groups
        axis.set_major_formatter(FuncFormatter(lambda v, _: number(v, ",.0f")))
    ax.set_xlabel(t("scale.axis_devices"))
    ax.set_ylabel(t("scale.axis_samples"))
    ax.set_title(title or "", fontsize=10)
    ax.legend(fontsize=8)
    return fig


def draw_step(step, ax=None, title: str | None = None):
    """The Gantt timeline of one simulated step (``sim.course.plots.timeline``)."""
    from sim.course.plots.timeline import draw
    return draw(step.events, ax=ax, title=title)


def write_trace(step, path) -> dict:
    """One step as a Chrome/Perfetto trace JSON file at ``path``; its first row, "mechanisms",
    names what shaped the step (``sim.scaleout.mechanisms``) over the whole step."""
    from sim.des.trace import Trace
    from sim.scaleout.mechanisms import describe
    trace = Trace()
    if step.mechanisms:
        trace.add("compute", describe(step.mechanisms), t("scale.cli_mechanisms"), 0.0, step.step_time)
    for e in step.events:
        trace.add(e.kind, e.name, e.where, e.start, e.end, e.status, e.nbytes)
    return trace.to_chrome_json(path)
