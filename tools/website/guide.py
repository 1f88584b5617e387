"""The teacher's guide (docs/teaching*.md) as a page of each language's site: ``teaching``.

The guide is written for GitHub, so its links name files of the repository. On the site those
files are pages: the glossary is ``glossary``, a lesson's notebook its lesson page, an exercise's
notebook its exercise page. The switcher, first as on every page, takes the place of the guide's
own line of language links. The site adds what only it has: under each lesson's heading, links to
the lesson's page and its slideshow; in the points table (class ``course-points``), each
exercise links its page. Another file of the repository (docs/site.md) is named by its path, as
the reader's clone has it; a link to nothing stops the build, naming it.
"""
from __future__ import annotations

import posixpath
import re

from tools.website import HTML_LANG, LANGS, ROOT
from tools.website.words import word

PAGE = "teaching"
GUIDES = {"en": "docs/teaching.md", "zh": "docs/teaching.zh.md", "pt": "docs/teaching.pt.md"}
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
LESSON_HEADING = re.compile(r"^### (\d\d) · .*$", re.M)
POINTS_STEM = re.compile(r"^\|\s*`(\d\d_[a-z0-9_]+)`\s*\|", re.M)
TABLE = re.compile(r"(?:^\|.*\n)+", re.M)


def page_of(path: str, lang: str) -> tuple[str, str] | None:
    """The (language, page) a repository file is on the site, if it is one: the glossary (in the
    guide's language), a guide, a lesson or an exercise (its student or solution notebook)."""
    if path == "notebooks/GLOSSARY.md":
        return lang, "glossary"
    guides = {name: other for other, name in GUIDES.items()}
    if path in guides:
        return guides[path], PAGE
    if m := re.fullmatch(r"notebooks/(en|zh|pt)/(\d\d_\w+)\.ipynb", path):
        return m.group(1), f"lessons/{m.group(2)}"
    if m := re.fullmatch(r"exercises/(en|zh|pt)/(?:solutions/)?(\d\d_\w+)\.ipynb", path):
        return m.group(1), f"exercises/{m.group(2)}"
    return None


def site_target(target: str, lang: str, pages: set[str]) -> str:
    """Where a link of the guide (relative to docs/) points on the site: a page's source name
    (``glossary.md``, ``lessons/NN_x.ipynb``) that Sphinx resolves and checks; ``../<lang>/...html``
    for a page in another language; the link as it is for an address on the web or an anchor of
    the guide itself; ``repository:<path>`` for another file of the repository (docs/site.md),
    which the site has no page for."""
    if target.startswith("#") or re.match(r"[a-z][a-z0-9+.-]*:", target):
        return target
    path, _, anchor = target.partition("#")
    path = posixpath.normpath(posixpath.join("docs", path))
    found = page_of(path, lang)
    anchor = f"#{anchor}" if anchor else ""
    if found and found[1] in pages | {PAGE}:
        other, page = found
        if other != lang:
            return f"../{other}/{page}.html{anchor}"
        return page + (".ipynb" if "/" in page else ".md") + anchor
    if not found and (ROOT / path).is_file():
        return f"repository:{path}"
    raise ValueError(f"{GUIDES[lang]}: its link {target} names neither a file of the repository nor a "
                     f"page of the website; link the glossary, a lesson, an exercise or a file the "
                     f"repository has")


def is_language_line(line: str) -> bool:
    """The guide's line of links to its other languages (the switcher replaces it)."""
    links = LINK.findall(line)
    others = {posixpath.basename(GUIDES[o]) for o in LANGS}
    return bool(links) and all(target in others for _, target in links) and not LINK.sub("", line).strip(" ·")


def rewrite_link(m: re.Match, lang: str, pages: set[str]) -> str:
    text, target = m.groups()
    new = site_target(target, lang, pages)
    if new.startswith("repository:"):      # named where the reader's clone has it
        return f"`{new.removeprefix('repository:')}`"
    if new.startswith("../"):              # another language's page: a plain link (Sphinx knows one language)
        other = new.split("/")[1]
        return f'<a href="{new}" hreflang="{HTML_LANG[other]}">{text}</a>'
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

    def points_table(m: re.Match) -> str:    # course.css keeps its numbers whole on a phone
        table = m.group(0)
        return f"```{{container}} course-points\n{table}```\n" if POINTS_STEM.search(table) else table
    return POINTS_STEM.sub(exercise_link, TABLE.sub(points_table, text))
