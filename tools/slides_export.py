"""Each lesson's slideshow as a static page of the website: the same deck RISE shows live
(tools/slides.py marks it), exported by nbconvert's SlidesExporter from the site's executed notebooks
(so its figures are there), with reveal.js taken from the sphinx-revealjs package, MathJax from the
site's copy and the course font: the pages fetch nothing from the web.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat

TEMPLATES = Path(__file__).resolve().parent / "slides_template"
TEMPLATE = "course_slides"
# What a deck needs of reveal.js: its script and styles, a theme, and the speaker-notes plugin.
REVEAL_PARTS = ("dist/reveal.js", "dist/reveal.css", "dist/theme/white.css",
                "dist/theme/fonts/source-sans-pro", "plugin/notes/notes.js")


# The combined MathJax configuration that jupyter-server-mathjax ships (the site's pages use it too).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full"


def reveal_source() -> Path:
    """The reveal.js that the sphinx-revealjs package ships (a site dependency)."""
    import sphinx_revealjs

    return Path(sphinx_revealjs.__file__).parent / "_static" / "revealjs"


def copy_reveal(target: Path) -> None:
    """reveal.js's parts into ``target`` (once for the three languages)."""
    source = reveal_source()
    for part in REVEAL_PARTS:
        (target / part).parent.mkdir(parents=True, exist_ok=True)
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part, dirs_exist_ok=True)
        else:
            shutil.copy2(source / part, target / part)


def has_math(nb: nbformat.NotebookNode) -> bool:
    """Whether a slide's text holds TeX ($...$, $$, \\( or \\[): only then does a deck load MathJax,
    as Sphinx does for a page (MathJax fetches its fonts even with nothing to typeset)."""
    tex = re.compile(r"\$[^$\n]+\$|\$\$|\\\(|\\\[")
    return any(tex.search(c.source) for c in nb.cells if c.cell_type == "markdown"
               and c.metadata.get("slideshow", {}).get("slide_type") != "skip")


def deck(nb: nbformat.NotebookNode, reveal_prefix: str, mathjax_url: str, font_url: str) -> str:
    """The notebook's slideshow as one HTML page (figures inline; reveal.js, MathJax and the course
    font linked at the given addresses)."""
    from nbconvert import SlidesExporter

    exporter = SlidesExporter(template_name=TEMPLATE, extra_template_basedirs=[str(TEMPLATES)],
                              reveal_url_prefix=reveal_prefix, reveal_theme="white",
                              reveal_transition="none", reveal_scroll=True, mathjax_url=mathjax_url,
                              exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb, resources={"course_font_url": font_url, "course_math": has_math(nb)})
    return body


def export(source: Path, target: Path, shared: Path, html_lang: str = "en") -> None:
    """Write ``source``'s deck to ``target``, linking what ``shared`` holds (reveal/, mathjax/,
    fonts/course.otf: the site's shared folder) relatively, so the page opens from disk."""
    import os

    up = Path(os.path.relpath(shared, target.parent)).as_posix()
    html = deck(nbformat.read(source, as_version=4), f"{up}/reveal",
                f"{up}/mathjax/MathJax.js?config={MATHJAX_CONFIG}", f"{up}/fonts/course.otf")
    # nbconvert knows ISO 639-1 codes only; the site's pages name the variety (zh-CN, pt-BR)
    html = re.sub(r"<html\b[^>]*>", f'<html lang="{html_lang}">', html, count=1)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".html.tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(target)
