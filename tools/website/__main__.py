"""Build the course website (``make site``): execute, write sources, run Sphinx, check."""
from __future__ import annotations

import argparse
import html
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from tools.slides_export import copy_reveal, export
from tools.website import BUILD, CONF_DIR, EXECUTED, HTML, HTML_LANG, LANG_NAMES, LANGS, SHARED, SOURCES
from tools.website.check import all_problems
from tools.website.execute import execute_all
from tools.website.font import EXTRA_FONT, course_font
from tools.website.pages import write_language
from tools.website.ui_words import translate_theme
from tools.website.words import word

# The parts of MathJax 2 that its combined TeX config with HTML-CSS output and STIX web fonts
# loads (website/conf.py configures it).
MATHJAX_PARTS = ("MathJax.js", "config", "jax/input/TeX", "jax/output/HTML-CSS", "jax/element",
                 "extensions", "fonts/HTML-CSS/STIX-Web/woff")


def copy_shared() -> None:
    """Fonts and MathJax, once for the three languages (each page links them relatively)."""
    import jupyter_server_mathjax
    from pathlib import Path

    mathjax = Path(jupyter_server_mathjax.__file__).parent / "static"
    if SHARED.exists():
        shutil.rmtree(SHARED)
    for part in MATHJAX_PARTS:
        src, dst = mathjax / part, SHARED / "mathjax" / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(src, dst) if src.is_dir() else shutil.copy2(src, dst)
    (SHARED / "fonts").mkdir(parents=True)
    shutil.copy2(course_font(), SHARED / "fonts" / "course.otf")
    if EXTRA_FONT.exists():
        shutil.copy2(EXTRA_FONT, SHARED / "fonts" / "site-extra.otf")


def sphinx(lang: str) -> None:
    out = HTML / lang
    if out.exists():
        shutil.rmtree(out)
    env = {**os.environ, "COURSE_SITE_LANG": lang, "SOURCE_DATE_EPOCH": "0"}
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", "-E",
           "-c", str(CONF_DIR), "-d", str(BUILD / "doctrees" / lang), str(SOURCES / lang), str(out)]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"Sphinx failed for {lang}:\n{result.stdout}{result.stderr}")


def slideshows() -> None:
    """html/<lang>/slides/NN_*.html: each lesson's classroom deck, from its executed notebook
    (figures included), with reveal.js in _shared/reveal (tools/slides_export.py)."""
    copy_reveal(SHARED / "reveal")
    for lang in LANGS:
        for executed in sorted((EXECUTED / lang / "lessons").glob("*.ipynb")):
            export(executed, HTML / lang / "slides" / f"{executed.stem}.html", SHARED, HTML_LANG[lang])


def root_page() -> None:
    """html/index.html: the three languages' home pages, each named in its own language."""
    links = "".join(f'<li lang="{HTML_LANG[lang]}"><a href="{lang}/index.html" hreflang="{HTML_LANG[lang]}">'
                    f'<strong>{html.escape(LANG_NAMES[lang])}</strong><span>{html.escape(word(lang, "site_title"))}'
                    f'</span></a></li>' for lang in LANGS)
    title = " · ".join(f'<span lang="{HTML_LANG[lang]}">{html.escape(word(lang, "choose"))}</span>' for lang in LANGS)
    (HTML / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="mul"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(" · ".join(word(lang, "site_title") for lang in LANGS))}</title>'
        '<link rel="icon" href="en/_static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="en/_static/course.css"></head>'
        f'<body class="course-root"><main><h1>{title}</h1><ul>{links}</ul></main></body></html>\n',
        encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check an existing build")
    parser.add_argument("--jobs", type=int, default=None, help="notebooks run at once (default: cores)")
    args = parser.parse_args(argv)
    if not args.check:
        ran = execute_all(args.jobs)
        print(f"notebooks executed: {ran} (the others were cached in {BUILD.relative_to(BUILD.parents[1])}/executed)")
        for lang in LANGS:
            write_language(lang)
        HTML.mkdir(parents=True, exist_ok=True)
        copy_shared()
        with ThreadPoolExecutor(max_workers=min(len(LANGS), os.cpu_count() or 1)) as pool:
            list(pool.map(sphinx, LANGS))
        for lang in LANGS:
            translate_theme(HTML / lang, lang)
        root_page()
        slideshows()
    problems = all_problems()
    if problems:
        print("\n".join(problems))
        print(f"website check: {len(problems)} problems")
        return 1
    print(f"website built and checked: open {(HTML / 'index.html').as_posix()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
