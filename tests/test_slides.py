"""Each lesson is also a live slideshow (tools/slides.py): title, key figure, demo, summary."""
from pathlib import Path

import nbformat
import pytest

from tools.slides import RISE, SlideError, mark_slides, slide_roles

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb"))


def _deck(path):
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_is_a_short_deck_in_every_language(path):
    decks = {lang: _deck(ROOT / "notebooks" / lang / path.name) for lang in ("en", "zh", "pt")}
    for lang, nb in decks.items():
        roles = slide_roles(nb)
        assert roles[0] == "title" and roles[-1] == "summary", (lang, roles)
        assert roles.count("title") == 1 and roles.count("summary") == 1
        assert 1 <= roles.count("code") <= 3, (lang, roles)        # the key figure, the demo
        assert all("slideshow" in c.metadata for c in nb.cells)
        assert nb.metadata["rise"] == RISE
    code_slides = {lang: [c.source for c in nb.cells if c.cell_type == "code"
                          and c.metadata["slideshow"]["slide_type"] == "slide"]
                   for lang, nb in decks.items()}
    assert code_slides["zh"] == code_slides["en"] == code_slides["pt"]


def test_the_setup_cell_is_never_shown():
    for path in LESSONS:
        assert _deck(path).cells[0].metadata["slideshow"]["slide_type"] == "skip"


def test_exercises_are_not_slideshows():
    for path in sorted((ROOT / "exercises" / "en").glob("*.ipynb")):
        nb = _deck(path)
        assert "rise" not in nb.metadata
        assert not any("slideshow" in c.metadata or "slide" in c.metadata for c in nb.cells)


def _cells(*specs):
    out = []
    for kind, source, meta in specs:
        cell = nbformat.v4.new_markdown_cell(source) if kind == "md" else nbformat.v4.new_code_cell(source)
        cell.metadata.update(meta)
        out.append(cell)
    return out


def test_a_summary_runs_to_the_end_and_other_cells_are_skipped():
    cells = _cells(("code", "setup", {}), ("md", "# Title", {}), ("md", "## 1. Part", {}),
                   ("code", "plot()", {"slide": "figure"}), ("code", "x = 1", {}),
                   ("md", "## Summary", {}), ("md", "- more", {}))
    mark_slides(cells, "t.py")
    assert [c.metadata["slideshow"]["slide_type"] for c in cells] == \
        ["skip", "slide", "skip", "slide", "skip", "slide", "-"]
    assert not any("slide" in c.metadata for c in cells)


@pytest.mark.parametrize("specs, words", [
    ([("md", "# T", {}), ("md", "## S", {"slide": "figure"})], "code cell may be"),
    ([("md", "# T", {}), ("code", "x", {"slide": "key"}), ("md", "## S", {})], "slide='key'"),
    ([("md", "# T", {}), ("code", "x", {})], "summary section"),
])
def test_marks_the_build_cannot_use_are_named(specs, words):
    with pytest.raises(SlideError, match=words):
        mark_slides(_cells(*specs), "t.py")
