"""Build sim/course/fonts/NotoSansSC-course.otf: a subset of Noto Sans CJK SC (SIL OFL 1.1).

Why: Chinese plots must render on every learner's machine (macOS and Windows have no apt),
so the package ships its own small CJK font. The subset holds the 3755 level-1 hanzi of
GB 2312 (the most common characters), CJK punctuation, and every character used by the
course sources and message catalogues. Rerun after adding text with rare characters:

    python -m tools.make_font_subset /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

(Debian package fonts-noto-cjk; any Noto Sans CJK / Source Han Sans SC file works.)
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "sim" / "course" / "fonts" / "NotoSansSC-course.otf"   # sim.course.plots.FONT_FILE


# Every file whose Chinese a learner reads: lesson and exercise sources, the generated zh
# notebooks (with the outputs the code printed), the message catalogues, the README and glossary.
COURSE_TEXT = ("notebooks/src/*.py", "exercises/src/*.py", "notebooks/zh/*.ipynb", "exercises/zh/*.ipynb",
               "exercises/zh/solutions/*.ipynb", "sim/i18n/catalogs/*.json", "README.zh.md",
               "notebooks/GLOSSARY.md")


def gb2312_level1() -> str:
    chars = []
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(chars)


def course_text() -> str:
    text = []
    for pattern in COURSE_TEXT:
        for path in ROOT.glob(pattern):
            text.append(path.read_text(encoding="utf-8"))
    return "".join(text)


def sc_face(path: str) -> TTFont:
    if path.endswith(".ttc"):
        for font in TTCollection(path).fonts:
            if "SC" in font["name"].getDebugName(1):
                return font
        raise SystemExit(f"no Simplified Chinese face in {path}")
    return TTFont(path)


def main(path: str) -> None:
    font = sc_face(path)
    punctuation = "".join(chr(c) for c in range(0x3000, 0x3040)) + "".join(
        chr(c) for c in range(0xFF00, 0xFFF0))
    text = set(gb2312_level1() + punctuation + course_text())
    text = "".join(sorted(c for c in text if ord(c) >= 0x2E80))
    options = subset.Options()
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    # A family name of its own, so it never shadows a full Noto Sans CJK install.
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "Noto Sans SC Course"
        elif record.nameID == 6:
            record.string = "NotoSansSC-Course"
    font.recalcTimestamp = False  # same characters, same bytes: no churn in git
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(OUT)
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB, {len(text)} CJK characters)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
