"""Chinese on the website in the course's own font, with no glyph missing.

The course font (``sim.course.plots.FONT_FILE``, a subset of Noto Sans SC) covers the lessons' text; the
site also shows words of its own and of Sphinx (its search page, its messages). Today the course
font covers all of them; should a page need a glyph it lacks, ``missing_glyphs`` names it (the
build's check fails) and this module's main cuts exactly the glyphs the site needs beyond the
course font from the same Noto Sans CJK face into ``website/fonts/site-extra.otf`` (commit it;
the site then declares it as a second face):

    python -m tools.website.font [/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from tools.website import HTML, ROOT

EXTRA_FONT = ROOT / "website" / "fonts" / "site-extra.otf"
EXTRA_FAMILY = "Noto Sans SC Site Extra"
FULL_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"   # Debian's fonts-noto-cjk


def course_font() -> Path:
    """The course's CJK font, from the one place that names it (the plots read it there too)."""
    from sim.course.plots import FONT_FILE
    return Path(FONT_FILE)


def is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80 and not 0xE000 <= ord(ch) <= 0xF8FF and ch not in "\ufeff\ufffd"


def site_text(html_root: Path = HTML) -> set[str]:
    """Every CJK character of the built pages and of the scripts that write text into them."""
    chars: set[str] = set()
    for path in html_root.rglob("*"):
        if path.suffix in (".html", ".js") and "_shared" not in path.parts:
            text = path.read_text(encoding="utf-8", errors="ignore")
            if path.suffix == ".js":   # Sphinx's translations.js writes its strings as \uXXXX
                text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
            chars.update(ch for ch in text if is_cjk(ch))
    return chars


def covered(path: Path) -> set[str]:
    if not path.exists():
        return set()
    return {chr(c) for c in TTFont(path)["cmap"].getBestCmap()}


def missing_glyphs(html_root: Path = HTML) -> list[str]:
    return sorted(site_text(html_root) - covered(course_font()) - covered(EXTRA_FONT))


def build_extra(full_font: str, html_root: Path = HTML) -> str:
    """Cut the glyphs the site needs beyond the course font from the full Noto Sans CJK face."""
    from tools.make_font_subset import sc_face

    needed = "".join(sorted(site_text(html_root) - covered(course_font())))
    font = sc_face(full_font)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=needed or "中")
    subsetter.subset(font)
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = EXTRA_FAMILY
        elif record.nameID == 6:
            record.string = EXTRA_FAMILY.replace(" ", "")
    font.recalcTimestamp = False
    EXTRA_FONT.parent.mkdir(parents=True, exist_ok=True)
    font.save(EXTRA_FONT)
    return needed


if __name__ == "__main__":
    added = build_extra(sys.argv[1] if len(sys.argv) > 1 else FULL_FONT)
    print(f"wrote {EXTRA_FONT.relative_to(ROOT)}: {len(added)} characters beyond the course font: {added}")
