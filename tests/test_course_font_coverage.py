"""The course's CJK font (sim/course/fonts, a subset of Noto Sans SC) has a glyph for every
Chinese character a learner reads: in the lessons and exercises with their printed outputs, the
message catalogues, the README and the glossary. The figures, the website and JupyterLab all draw
Chinese with it, so a missing glyph is a box on a machine with no Chinese font of its own."""
from pathlib import Path

from fontTools.ttLib import TTFont

from sim.course.plots import FONT_FILE
from tools.make_font_subset import COURSE_TEXT, OUT

ROOT = Path(__file__).resolve().parents[1]


def is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80 and not 0xE000 <= ord(ch) <= 0xF8FF and ch not in "\ufeff\ufffd"


def test_the_subset_script_writes_the_font_the_course_reads():
    assert OUT.resolve() == Path(FONT_FILE).resolve()


def test_every_chinese_character_of_the_course_has_a_glyph():
    covered = set(TTFont(FONT_FILE)["cmap"].getBestCmap())
    missing = {}
    for pattern in COURSE_TEXT:
        for path in ROOT.glob(pattern):
            for ch in path.read_text(encoding="utf-8"):
                if is_cjk(ch) and ord(ch) not in covered:
                    missing.setdefault(ch, path.relative_to(ROOT).as_posix())
    assert not missing, (f"no glyph for {''.join(sorted(missing))} (first seen in {sorted(set(missing.values()))}):"
                         " run `python -m tools.make_font_subset` with Debian's fonts-noto-cjk")
