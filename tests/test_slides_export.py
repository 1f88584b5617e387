"""The static slideshows of the website (tools/slides_export.py): the live deck's slides, offline."""
import re
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("sphinx_revealjs")
pytest.importorskip("nbconvert")

from tools.slides_export import REVEAL_PARTS, copy_reveal, export  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_a_lessons_deck_holds_its_slides_and_fetches_nothing(tmp_path):
    shared = tmp_path / "_shared"
    copy_reveal(shared / "reveal")
    assert all((shared / "reveal" / part).exists() for part in REVEAL_PARTS)
    source = ROOT / "notebooks" / "zh" / "08_scaling.ipynb"
    target = tmp_path / "zh" / "slides" / "08_scaling.html"
    export(source, target, shared)
    page = target.read_text(encoding="utf-8")
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', page), "a deck must open offline"
    assert 'src="../../_shared/reveal/dist/reveal.js"' in page
    shown = [c for c in nbformat.read(source, as_version=4).cells
             if c.metadata["slideshow"]["slide_type"] == "slide"]
    # reveal.js's stacks: one outer <section> per slide, holding its subslides' sections
    assert page.count("<section>") == 2 * len(shown) and len(shown) >= 3
    assert "更大的批次" in page                 # the zh title, in the zh deck
    assert "MathJax" not in page               # no TeX on its slides: no MathJax, no font requests


def test_a_deck_with_math_loads_the_sites_own_mathjax(tmp_path):
    """Lesson 10's summary writes $10^{-7}$: its deck links the MathJax the site copies into
    _shared/mathjax (jupyter-server-mathjax's), under a configuration that package ships."""
    import jupyter_server_mathjax

    from tools.slides_export import MATHJAX_CONFIG

    target = tmp_path / "pt" / "slides" / "10_real_tensorflow.html"
    export(ROOT / "notebooks" / "pt" / "10_real_tensorflow.ipynb", target, tmp_path / "_shared")
    page = target.read_text(encoding="utf-8")
    assert "$10^{-7}$" in page
    assert f'<script src="../../_shared/mathjax/MathJax.js?config={MATHJAX_CONFIG}"></script>' in page
    assert (Path(jupyter_server_mathjax.__file__).parent / "static" / "config" / f"{MATHJAX_CONFIG}.js").is_file()
    assert 'webFont: "STIX-Web"' in page and "imageFont: null" in page   # the fonts the site ships
