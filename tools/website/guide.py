"""The teacher's guide (docs/teaching*.md) as a page of each language's site: ``teaching``.

The guide is written for GitHub, so its links name files of the repository. On the site those
files are pages: the glossary is ``glossary``, a lesson's notebook its lesson page, an exercise's
notebook its exercise page, and the guide in another language is reached by the switcher, which
takes the place of the guide's own line of language links (first on the page, as on every page). The site adds what only it has: under
each lesson's heading, links to the lesson's page and its slideshow; in the points table, each
exercise links its page. A link the site cannot serve stops the build, naming it.
"""
from __future__ import annotations

import posixpath
import re

from tools.website import LANGS, ROOT
from tools.website.words import word

PAGE = "teaching"
GUIDES = {"en": "docs/teaching.md", "zh": "docs/teaching.zh.md", "pt": "docs/teaching.pt.md"}
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
LESSON_HEADING = re.compile(r"^### (\d\d) · .*$", re.M)
POINTS_STEM = re.compile(r"^\|\s*`(\d\d_[a-z0-9_]+)`\s*\|", re.M)


def site_target(target: str, lang: str, pages: set[str]) -> str:
    """Where a link of the guide (relative to docs/) points on the site: a page's source name
    (``glossary.md``, ``lessons/NN_x.ipynb``) that Sphinx resolves and checks, or the link as it
    is for an address on the web or an anchor of the guide itself."""
    if target.startswith("#") or re.match(r"[a-z][a-z0-9+.-]*:", target):
        return target
    path, _, anchor = target.partition("#")
    path = posixpath.normpath(posixpath.join("docs", path))
    page = None
    if path == "notebooks/GLOSSARY.md":
        page = "glossary"
    elif m := re.fullmatch(rf"notebooks/{lang}/(\d\d_\w+)\.ipynb", path):
        page = f"lessons/{m.group(1)}"
    elif m := re.fullmatch(rf"exercises/{lang}/(?:solutions/)?(\d\d_\w+)\.ipynb", path):
        page = f"exercises/{m.group(1)}"
    if page is None or page not in pages:
        raise ValueError(f"{GUIDES[lang]}: its link {target} has no page on the website; link the glossary, "
                         f"a lesson or an exercise of the same language, or give it a page in "
                         f"tools/website/guide.py")
    suffix = ".md" if page == "glossary" else ".ipynb"
    return page + suffix + (f"#{anchor}" if anchor else "")


def is_language_line(line: str) -> bool:
    """The guide's line of links to its other languages (the switcher replaces it)."""
    links = LINK.findall(line)
    others = {posixpath.basename(GUIDES[o]) for o in LANGS}
    return bool(links) and all(target in others for _, target in links) and not LINK.sub("", line).strip(" ·")


def rewrite_link(m: re.Match, lang: str, pages: set[str]) -> str:
    text, target = m.groups()
    if target in {posixpath.basename(path) for path in GUIDES.values()}:   # the guide, another language
        other = next(o for o, path in GUIDES.items() if path.endswith("/" + target))
        return f'<a href="../{other}/{PAGE}.html" hreflang="{other}">{text}</a>'
    new = site_target(target, lang, pages)
    if new.startswith("glossary") and text == "notebooks/GLOSSARY.md":
        text = word(lang, "glossary_link")
    return f"[{text}]({new})"


def lesson_links(number: str, lang: str, pages: set[str]) -> str:
    """The line under a lesson's heading: its page and its slideshow (html/<lang>/slides/)."""
    stems = sorted(p.split("/", 1)[1] for p in pages if p.startswith(f"lessons/{number}_"))
    if not stems:
        raise ValueError(f"{GUIDES[lang]}: its section for lesson {number} names a lesson the site does not have")
    stem = stems[0]
    return (f'[{word(lang, "guide_lesson")}](lessons/{stem}.ipynb) · '
            f'<a href="slides/{stem}.html">{word(lang, "slides_link")}</a>')


def guide_page(lang: str, nav: str, pages: set[str]) -> str:
    """The MyST source of ``teaching.md``; ``pages`` are the site's page names (``lessons/00_x``)."""
    lines = (ROOT / GUIDES[lang]).read_text(encoding="utf-8").splitlines()
    text = "\n".join([nav, ""] + [line for line in lines if not is_language_line(line)]) + "\n"
    text = LINK.sub(lambda m: rewrite_link(m, lang, pages), text)
    text = LESSON_HEADING.sub(lambda m: f"{m.group(0)}\n\n{lesson_links(m.group(1), lang, pages)}", text)

    def exercise_link(m: re.Match) -> str:
        if f"exercises/{m.group(1)}" not in pages:
            raise ValueError(f"{GUIDES[lang]}: its points table names {m.group(1)}, an exercise the site does not have")
        return f"| [`{m.group(1)}`](exercises/{m.group(1)}.ipynb) |"
    return POINTS_STEM.sub(exercise_link, text)
