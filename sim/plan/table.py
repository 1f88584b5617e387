"""A plan as a table a person reads: one row per candidate, best first, then where each column
comes from. Numbers in the course language's format; widths count a CJK character as two, and a
row is at most 100 columns, so it fits JupyterLab at 1280x720 with the file browser open."""
from __future__ import annotations

import math
import unicodedata

from sim.i18n import number, t

WIDTHS = (2, 4, 24, 15, 6, 9, 8, 13, 7, 1)
LEFT = (2, 3)
MARKS = {"published": "", "interpolated": "", "extrapolated": "*", "not reached": "!"}


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cell(text: str, width: int, left: bool = False) -> str:
    pad = " " * max(0, width - _width(text))
    return text + pad if left else pad + text


def column_widths() -> tuple:
    """WIDTHS, each widened to its header in the course language (zh "每步（ms）" is 10 columns)."""
    return tuple(max(w, _width(h)) for w, h in zip(WIDTHS, t("plan.columns").split("|")))


def line(values, widths=None) -> str:
    widths = widths or column_widths()
    return " ".join(_cell(v, w, left=i in LEFT) for i, (v, w) in enumerate(zip(values, widths))).rstrip()


def text_table(header, rows, widths=None, left=()) -> str:
    """Any small table for a lesson: cells padded by display width (a CJK character is two
    columns), so a translated header stands over its column in every language. ``widths=None``
    makes each column as wide as its widest cell, the header included: a header whose length
    differs from language to language then still fits its column. Given widths are widened to
    their header where it is longer (lesson 11's zh and pt headers were)."""
    if widths is None:
        widths = [max(_width(str(v)) for v in column) for column in zip(header, *rows)]
    else:
        widths = [max(w, _width(str(h))) for w, h in zip(widths, header)]

    def one(values):
        return " ".join(_cell(str(v), w, left=i in left) for i, (v, w) in enumerate(zip(values, widths))).rstrip()
    return "\n".join([one(header)] + [one(r) for r in rows])


def duration(seconds: float) -> str:
    """``1 h 05 min``, ``12.0 min``, ``3.2 s``, ``0.80 ms``; ``never`` when the target is not reached."""
    if not math.isfinite(seconds):
        return t("plan.never")
    if seconds >= 3600:
        return t("plan.hours", h=int(seconds // 3600), m=int(seconds % 3600 // 60))
    if seconds >= 60:
        return t("plan.minutes", m=seconds / 60)
    if seconds >= 1:
        return t("plan.seconds", s=seconds)
    return t("plan.milliseconds", ms=seconds * 1e3)


def cost(value: float) -> str:
    return number(value, ",.0f") if value >= 10 else number(value, ",.2f") if value >= 0.01 or value == 0 \
        else number(value, ".1e")


def cells(rank: int, row) -> list:
    c = row.candidate
    where = f"{c.nodes}×{c.machine}" + (f" {c.network}" if c.network else "")
    steps = number(row.steps, ",.0f") if row.reaches else "-"
    ms = row.step.seconds * 1e3
    step_ms = number(ms, ",.1f") if ms >= 1 else number(ms, ".3f")
    return [str(rank), str(c.devices), where, c.short_how(), number(c.update_batch, ","), steps,
            step_ms, duration(row.seconds), cost(row.cost) if row.reaches else "-", MARKS[row.status]]


def render(plan, limit: int | None = None) -> str:
    """The ranked rows (the first ``limit``), then one line per column saying where it is from."""
    widths = column_widths()                 # once per table, not per row
    lines = [line(t("plan.columns").split("|"), widths)]
    lines += [line(cells(i, row), widths) for i, row in enumerate(plan.rows[:limit], 1)]
    lines.append(sources(plan))
    return "\n".join(lines)


def sources(plan) -> str:
    """Where each column comes from, in words, and what the marks mean."""
    src = plan.curve
    step = {r.step.source for r in plan.rows} or {"simulated"}
    if hasattr(src, "points"):
        key = "plan.source_recipe_samples" if getattr(src, "unit", "epochs") == "samples" else "plan.source_recipe"
        first = t(key, name=src.name, optimizer=t(f"plan.opt_{src.name}"),
                  target=t(f"plan.target_{src.name}"), cite=t(f"plan.cite_{src.name}"),
                  low=src.points[0].batch, high=src.largest)
    else:
        first = t("plan.source_steps", source=t(f"plan.source_{src.source}"), target=src.target,
                  cite=src.cite or "-", s_min=src.s_min, b_crit=src.b_crit,
                  rule=t(f"plan.rule_{src.rule}"))
    out = [first, t("plan.source_step", source=", ".join(t(f"plan.source_{s}") for s in sorted(step))),
           t("plan.source_derived")]
    if plan.epochs is not None:
        unit = getattr(src, "unit", "epochs")
        out.append(t("plan.source_budget_samples" if unit == "samples" else "plan.source_budget",
                     epochs=plan.epochs))
    return "\n".join(out)
