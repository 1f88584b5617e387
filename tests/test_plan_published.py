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


@pytest.mark.parametrize("family,word,sign", [("resnet", "optimistic", -1), ("bert", "pessimistic", 1)])
def test_the_planners_direction_and_range_are_what_the_doc_says(family, word, sign):
    """The doc's "optimistic by A-B %" (ResNet-50) and "pessimistic by A-B %" (BERT-Large) are
    the computed ranges (they cannot drift from the model), one direction per model."""
    import re
    low, high = map(int, re.search(word + r" by (\d+)-(\d+) %", DOC).groups())
    errors = [sign * row["error"] for row in comparison() if row["what"].lower().startswith(family)]
    assert len(errors) == 5 if family == "resnet" else len(errors) == 3
    assert all(e > 0 for e in errors)                      # always the one direction
    assert (round(100 * min(errors)), round(100 * max(errors))) == (low, high)


def test_bert_rows_use_lamb_and_the_runs_batch_per_gpu():
    rows = [r for r in comparison() if r["recipe"] == "mlperf-lamb"]
    assert [r["batch"] for r in rows] == [768, 4608, 3072]
    assert [r["status"] for r in rows] == ["interpolated", "published", "published"]
