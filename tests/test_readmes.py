"""The three READMEs keep their promises: two commands, and a course map row per lesson."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = {"en": "README.md", "zh": "README.zh.md", "pt": "README.pt.md"}
LESSONS = sorted(p.stem for p in (ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py"))


@pytest.mark.parametrize("lang, name", READMES.items())
def test_quick_start_is_make_lab_and_make_test(lang, name):
    text = (ROOT / name).read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", text, flags=re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first_block.splitlines() if line.strip()]
    assert commands == ["make lab", "make test"]


@pytest.mark.parametrize("lang, name", READMES.items())
def test_course_map_links_every_lesson_in_every_language(lang, name):
    text = (ROOT / name).read_text(encoding="utf-8")
    for stem in LESSONS:
        for other in READMES:
            link = f"notebooks/{other}/{stem}.ipynb"
            assert link in text, f"{name} lacks {link}"
            assert (ROOT / link).exists(), link


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
