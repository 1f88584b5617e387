"""A plan as a table a person reads: one row per candidate, best first, then where each column
comes from. Numbers in the course language's format; widths count a CJK character as two."""
from __future__ import annotations

import math
import unicodedata

from sim.i18n import number, t

WIDTHS = (3, 34, 28, 7, 6, 9, 9, 9, 9, 7)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cell(text: str, width: int, left: bool = False) -> str:
    pad = " " * max(0, width - _width(text))
    return text + pad if left else pad + text


def duration(seconds: float) -> str:
    """``1 h 05 min``, ``12 min``, ``3.2 s``, ``0.8 ms``; ``never`` when the target is not reached."""
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
    return number(value, ",.2f") if value >= 0.01 or value == 0 else number(value, ".1e")


def cells(rank: int, row) -> list:
    c = row.candidate
    where = f"{c.nodes}x {c.machine} ({c.devices} GPU)" + (f" {c.network}" if c.network else "")
    how = c.tf_name.replace("Strategy", "") + " " + c.strategy.split("-", 1)[-1] \
        + (f" ps={c.ps}" if c.strategy.startswith("ps") else "")
    batch = c.devices * c.batch_per_device if c.synchronous else c.batch_per_device
    steps = number(row.steps, ",.0f") if row.reaches else "-"
    stale = number(row.staleness_steps, ",.0f") if not c.synchronous and row.reaches else "-"
    step_ms = number(row.step.seconds * 1e3, ",.1f") if row.step.seconds >= 1e-3 else \
        number(row.step.seconds * 1e3, ".3f")
    return [str(rank), where, how, number(batch, ","), number(row.learning_rate, ".3g"), steps,
            step_ms, duration(row.seconds), cost(row.cost) if row.reaches else "-", stale]


def render(plan, limit: int | None = None) -> str:
    """The ranked rows (the first ``limit``), then one line per column saying where it is from."""
    names = t("plan.columns").split("|")
    lines = [" ".join(_cell(n, w, left=i in (1, 2)) for i, (n, w) in enumerate(zip(names, WIDTHS)))]
    for i, row in enumerate(plan.rows[:limit], 1):
        lines.append(" ".join(_cell(v, w, left=j in (1, 2))
                              for j, (v, w) in enumerate(zip(cells(i, row), WIDTHS))))
    lines.append(sources(plan))
    return "\n".join(lines)


def sources(plan) -> str:
    """Where each column comes from, in words."""
    curve = plan.curve
    step = {r.step.source for r in plan.rows} or {"simulated"}
    return "\n".join([
        t("plan.source_steps", source=t(f"plan.source_{curve.source}"), target=curve.target,
          cite=curve.cite or "-", s_min=curve.s_min, b_crit=curve.b_crit, rule=curve.rule),
        t("plan.source_step", source=", ".join(t(f"plan.source_{s}") for s in sorted(step))),
        t("plan.source_derived")])
