"""Plots that speak the course language.

``setup_fonts()`` registers the CJK font shipped in ``sim/course/fonts`` by path (no reliance on what
a machine has installed, no font-cache rebuild) and sets a per-glyph fallback list: DejaVu Sans
for Latin text and the minus sign, then the CJK font for hanzi.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib
from matplotlib import font_manager

from sim.i18n import t
from sim.course.plots import number_format  # noqa: F401  (sim.setup installs its figure hook)

FONT_FILE = Path(__file__).resolve().parents[1] / "fonts" / "NotoSansSC-course.otf"
CJK_FAMILY = "Noto Sans SC Course"


def setup_fonts() -> str:
    """Register the course CJK font and make it the fallback for every plot; return its family."""
    if CJK_FAMILY not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(FONT_FILE))
    matplotlib.rcParams["font.family"] = ["DejaVu Sans", CJK_FAMILY, "sans-serif"]
    return CJK_FAMILY


def label(key: str, **fields) -> str:
    """A plot label from the ``plots`` catalogue in the course language."""
    return t(f"plots.{key}", **fields)
