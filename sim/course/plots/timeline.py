"""The timeline (Gantt chart) of a simulated run: one row per device or link pair, one bar per
event, in the course language.

The course's signature figure: it shows at a glance when devices compute, when they wait, and
which copies share (and slow) a link.
"""
from __future__ import annotations

import re

import matplotlib.pyplot as plt
from matplotlib.patches import Patch

from sim.i18n import t

COLORS = {"compute": "#4C72B0", "transfer": "#DD8452", "failure": "#C44E52"}
_UNITS = ((1e-3, 1e6, "time_us"), (1.0, 1e3, "time_ms"), (float("inf"), 1.0, "time_s"))


_FULL_NAME = re.compile(r"/job:(\w+)/replica:\d+/task:(\d+)/device:([A-Z]+):(\d+)")


def short_where(where: str) -> str:
    """``/job:localhost/replica:0/task:0/device:GPU:1`` → ``/gpu:1`` (``worker:1/gpu:1`` off host 0).

    Full TensorFlow names would take half the figure's width; the short form is TensorFlow's too.
    """
    def shorten(m):
        job, task, kind, index = m.groups()
        device = f"/{kind.lower()}:{index}"
        return device if job == "localhost" or (task == "0" and job != "worker") else \
            f"{job}:{task}{device}"
    return _FULL_NAME.sub(shorten, where)


def _events(trace):
    events = trace.events if hasattr(trace, "events") else trace
    try:
        return list(events)
    except TypeError:
        raise TypeError(t("timeline.not_a_trace", got=type(trace).__name__)) from None


def _unit(span: float):
    for limit, scale, key in _UNITS:
        if span < limit:
            return scale, key
    return 1.0, "time_s"


def draw(trace, ax=None, title: str | None = None, kinds=("compute", "transfer", "failure")):
    """Draw ``trace`` (a ``sim.des.Trace`` or a list of ``TraceEvent``) and return the figure.

    Rows are the places events happened (``/gpu:0``, ``/gpu:0→/gpu:1``), compute rows first;
    failed events are hatched; the time axis picks µs, ms or s from the run's length.
    """
    events = [e for e in _events(trace) if e.kind in kinds]
    if ax is None:
        fig, ax = plt.subplots(figsize=(9, 0.45 * max(3, len({e.where for e in events})) + 1.2),
                               layout="constrained")
    else:
        fig = ax.figure
    order = {"compute": 0, "failure": 1, "transfer": 2}
    rows: dict[str, int] = {}
    for e in sorted(events, key=lambda e: (order.get(e.kind, 3), e.where)):
        rows.setdefault(e.where, len(rows))
    labels = [short_where(where) for where in rows]
    span = max((e.end for e in events), default=0.0)
    scale, unit_key = _unit(span)
    bars: dict[tuple, list] = {}
    for e in events:
        key = (rows[e.where], e.kind, e.status)
        bars.setdefault(key, []).append((e.start * scale, max((e.end - e.start) * scale, 0.0)))
    for (row, kind, status), spans in sorted(bars.items()):
        color = COLORS.get(kind, "#8172B2")
        if kind == "failure":
            ax.plot([s for s, _ in spans], [row] * len(spans), marker="X", linestyle="none",
                    color=color, markersize=10)
            continue
        ax.broken_barh(spans, (row - 0.35, 0.7), facecolors=color, edgecolor="black",
                       linewidth=0.4, hatch="//" if status != "ok" else None,
                       alpha=0.6 if status != "ok" else 0.9)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels)
    ax.set_ylim(max(len(rows), 1) - 0.5, -0.5)
    ax.set_xlim(0, span * scale * 1.02 if span > 0 else 1)
    ax.set_xlabel(t(f"timeline.{unit_key}"))
    ax.set_ylabel(t("timeline.where"))
    ax.set_title(title if title is not None else t("timeline.title"))
    present = [k for k in ("compute", "transfer", "failure") if any(e.kind == k for e in events)]
    if present:
        ax.legend(handles=[Patch(color=COLORS[k], label=t(f"timeline.{k}")) for k in present],
                  loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    ax.grid(axis="x", alpha=0.3)
    return fig
