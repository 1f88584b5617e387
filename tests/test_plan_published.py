"""The time-to-accuracy table of docs/published_comparison.md is what sim.plan.published computes
(to the digits printed), and the planner's error against each published run is what it says."""
from pathlib import Path

import pytest

from sim.plan.published import TIME_TO_ACCURACY, comparison
from sim.scaleout.ps_scale import horovod_fig1

DOC = (Path(__file__).resolve().parents[1] / "docs" / "published_comparison.md").read_text()


def test_doc_rows_are_the_computed_ones():
    section = DOC.split("## Time to accuracy")[1]
    rows = comparison()
    assert len(rows) == len(TIME_TO_ACCURACY)
    for row in rows:
        assert f"{row['error']:+.0%}".replace("+", "+" if row["error"] > 0 else "") .replace("%", " %") \
            in section, row
        assert row["status"] != "not reached"
    for model in ("inception_v3", "resnet101"):
        assert f"{horovod_fig1(model).efficiency:.1%}".replace("%", " %") in section


def test_the_planner_is_optimistic_by_what_the_doc_says():
    """The doc's "optimistic by A-B %" is the computed range (it cannot drift from the model)."""
    import re
    low, high = map(int, re.search(r"optimistic by (\d+)-(\d+) %", DOC).groups())
    errors = [-row["error"] for row in comparison()]
    assert all(e > 0 for e in errors)                      # always optimistic
    assert (round(100 * min(errors)), round(100 * max(errors))) == (low, high)
