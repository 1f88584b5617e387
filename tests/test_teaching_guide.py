"""The teacher's guide (docs/teaching*.md) in its three languages: a section for every lesson, and
the points per exercise that nbgrader gives (tools/assignments.POINTS), so the guide cannot state
other points than the assignments carry, nor forget a lesson."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.assignments import POINTS, exercise_stems

ROOT = Path(__file__).resolve().parents[1]
GUIDES = {"en": ROOT / "docs" / "teaching.md", "zh": ROOT / "docs" / "teaching.zh.md",
          "pt": ROOT / "docs" / "teaching.pt.md"}
# Lesson 12 (a real cluster) is part of the course even where its source has not landed yet.
LESSONS = sorted({f"{n:02d}" for n in range(13)}
                 | {p.name[:2] for p in (ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py")})
# A lesson's section: a third-level heading that starts with its two-digit number, "### 07 · ...".
LESSON_HEADING = re.compile(r"^### (\d\d) · \S", re.M)
# A points row: the exercise's stem in backticks in the first column, a bare integer in the last.
POINTS_ROW = re.compile(r"^\|\s*`(\d\d_[a-z0-9_]+)`\s*\|.*\|\s*(\d+)\s*\|\s*$", re.M)


def guide(lang: str) -> str:
    path = GUIDES[lang]
    assert path.exists(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", GUIDES)
def test_one_section_per_lesson_in_order(lang):
    found = LESSON_HEADING.findall(guide(lang))
    assert found == LESSONS, f"docs/{GUIDES[lang].name}: lesson sections {found}, expected {LESSONS}"


@pytest.mark.parametrize("lang", GUIDES)
def test_points_table_is_the_assignments_points(lang):
    rows = POINTS_ROW.findall(guide(lang))
    stems = [stem for stem, _ in rows]
    assert len(stems) == len(set(stems)), f"docs/{GUIDES[lang].name}: an exercise has two rows"
    assert {stem: int(points) for stem, points in rows} == POINTS


def test_every_exercise_has_points():
    """The guide's table is POINTS; POINTS must cover every exercise the course has."""
    assert set(POINTS) == set(exercise_stems())


@pytest.mark.parametrize("lang", GUIDES)
def test_guide_links_the_other_languages_and_the_readme_links_the_guide(lang):
    others = {name.name for other, name in GUIDES.items() if other != lang}
    text = guide(lang)
    assert all(f"({name})" in text for name in others), f"docs/{GUIDES[lang].name}: no link to {others}"
    readme = {"en": "README.md", "zh": "README.zh.md", "pt": "README.pt.md"}[lang]
    assert f"(docs/{GUIDES[lang].name})" in (ROOT / readme).read_text(encoding="utf-8"), \
        f"{readme} does not link docs/{GUIDES[lang].name}"
