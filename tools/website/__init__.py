"""The course as a static website: Sphinx + MyST-NB, one build per language (see docs/site.md).

    python -m tools.website            # execute (cached), write the sources, build, check
    python -m tools.website --check    # check an existing build only

Layout of what it writes (all under build/site/, never committed):

    executed/<lang>/{lessons,solutions}/NN_*.ipynb   notebooks run with their figures (a cache)
    src/<lang>/                                      the Sphinx source tree of one language
    html/<lang>/...   html/index.html                 the website (open html/index.html)
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh", "pt")
# Sphinx's language codes (its UI strings and search splitter/stemmer) and the HTML lang attribute.
SPHINX_LANGUAGE = {"en": "en", "zh": "zh_CN", "pt": "pt_BR"}
HTML_LANG = {"en": "en", "zh": "zh-CN", "pt": "pt-BR"}
LANG_NAMES = {"en": "English", "zh": "简体中文", "pt": "Português"}

BUILD = ROOT / "build" / "site"
EXECUTED = BUILD / "executed"
SOURCES = BUILD / "src"
HTML = BUILD / "html"
SHARED = HTML / "_shared"          # fonts and MathJax, one copy for the three languages
CONF_DIR = ROOT / "website"        # conf.py, templates, CSS
