"""Checks of a built website: every internal link resolves, every figure is there, every page is
in the language its path says, and every language has its slideshows and the teacher's guide.
Each returns a list of problems, one sentence each."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat

from tools.website import EXECUTED, HTML, HTML_LANG, LANGS

IMAGE_MIMES = ("image/png", "image/gif", "image/jpeg", "image/svg+xml")
# Words that are frequent in one language's prose and rare in the other's.
STOPWORDS = {
    "en": {"the", "and", "of", "is", "to", "that", "with", "this", "are", "it", "which", "on"},
    "pt": {"de", "que", "não", "uma", "para", "com", "os", "das", "do", "da", "é", "em", "no", "na"},
}
SKIPPED_TAGS = {"pre", "code", "table", "nav", "script", "style", "math", "noscript"}


class Page(HTMLParser):
    """What the checks need from one page: its lang, links, images, ids and article prose."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = None
        self.links: list[str] = []
        self.images: list[str] = []
        self.ids: set[str] = set()
        self.prose: list[str] = []
        self._article = 0
        self._skip_tag: str | None = None   # the outermost element whose text is not prose
        self._skip_depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name) and tag in ("a", "link", "script", "img", "source", "iframe"):
                self.links.append(attrs[name])
        if tag == "img":
            self.images.append(attrs.get("src", ""))
        if tag == "article":
            self._article += 1
        classes = (attrs.get("class") or "").split()
        if self._skip_tag == tag:
            self._skip_depth += 1
        elif self._skip_tag is None and (tag in SKIPPED_TAGS or {"highlight", "cell_output"} & set(classes)):
            self._skip_tag, self._skip_depth = tag, 1

    def handle_endtag(self, tag):
        if tag == "article":
            self._article -= 1
        if tag == self._skip_tag:
            self._skip_depth -= 1
            if self._skip_depth == 0:
                self._skip_tag = None

    def handle_data(self, data):
        if self._article and self._skip_tag is None:
            self.prose.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def pages(html_root: Path = HTML) -> list[Path]:
    # the Sphinx pages; the slideshows (slides/) are reveal.js pages with checks of their own
    return sorted(p for p in html_root.rglob("*.html") if not {"_shared", "slides"} & set(p.parts))


def broken_links(html_root: Path = HTML) -> list[str]:
    """Relative links and resources that point at no file (or at an id the page lacks)."""
    problems = []
    parsed: dict[Path, Page] = {}
    for path in pages(html_root):
        page = parsed.setdefault(path, parse(path))
        for link in page.links:
            url = urlsplit(link)
            if url.scheme or link.startswith("//"):
                continue
            target = (path.parent / unquote(url.path)).resolve() if url.path else path
            if target.is_dir():
                target = target / "index.html"
            shown = path.relative_to(html_root)
            if not target.exists():
                problems.append(f"{shown}: broken link {link}")
            elif url.fragment and target.suffix == ".html":
                other = parsed.setdefault(target, parse(target))
                if unquote(url.fragment) not in other.ids:
                    problems.append(f"{shown}: link {link} names an id its page lacks")
    return problems


def figures_in(nb_path: Path) -> int:
    """The distinct figures of a notebook (a page shows a repeated picture once)."""
    nb = nbformat.read(nb_path, as_version=4)
    return len({str(o["data"][m]) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                for m in IMAGE_MIMES if m in o.get("data", {})})


def repeated_figures(html_root: Path = HTML) -> list[str]:
    """No page shows the same picture twice (a widget's first picture beside its static copy)."""
    problems = []
    for path in pages(html_root):
        figures = [src for src in parse(path).images if "_images/" in src]
        repeated = sorted({src for src in figures if figures.count(src) > 1})
        if repeated:
            problems.append(f"{path.relative_to(html_root)}: shows {', '.join(repeated)} more than once")
    return problems


def missing_figures(html_root: Path = HTML) -> list[str]:
    """Every figure of the executed notebooks is on its page, and every image file is there."""
    problems = []
    for path in pages(html_root):
        shown = path.relative_to(html_root)
        page = parse(path)
        for src in page.images:
            target = path.parent / unquote(urlsplit(src).path)
            if not urlsplit(src).scheme and (not target.is_file() or target.stat().st_size == 0):
                problems.append(f"{shown}: figure {src} is missing")
        rel = path.relative_to(html_root).parts
        if len(rel) == 3 and rel[1] in ("lessons", "exercises"):
            kind = "lessons" if rel[1] == "lessons" else "solutions"
            executed = EXECUTED / rel[0] / kind / (Path(rel[2]).stem + ".ipynb")
            expected = figures_in(executed) if executed.exists() else 0
            shown_figures = sum(1 for src in page.images if "/_images/" in "/" + src or src.startswith("../_images"))
            if shown_figures < expected:
                problems.append(f"{shown}: shows {shown_figures} figures, its notebook has {expected}")
    return problems


def language_of(text: str) -> str:
    letters = [ch for ch in text if ch.isalpha()]
    cjk = sum(1 for ch in letters if ord(ch) >= 0x2E80)
    if letters and cjk / len(letters) > 0.2:
        return "zh"
    words = re.findall(r"[a-zà-ú]+", text.lower())
    score = {lang: sum(1 for w in words if w in STOPWORDS[lang]) for lang in STOPWORDS}
    return max(score, key=score.get)


def wrong_languages(html_root: Path = HTML) -> list[str]:
    """Pages under html/<lang>/ whose <html lang> or whose prose is another language."""
    problems = []
    for lang in LANGS:
        for path in pages(html_root / lang):
            shown = path.relative_to(html_root)
            page = parse(path)
            if page.lang != HTML_LANG[lang]:
                problems.append(f"{shown}: <html lang={page.lang!r}>, expected {HTML_LANG[lang]!r}")
            prose = " ".join(page.prose)
            if len(prose.split()) >= 20 or sum(1 for ch in prose if ord(ch) >= 0x2E80) >= 40:
                found = language_of(prose)
                if found != lang:
                    problems.append(f"{shown}: its text reads as {found}, its path says {lang}")
    return problems


def missing_slideshows(html_root: Path = HTML) -> list[str]:
    """Every lesson page has its classroom deck (html/<lang>/slides/), and no deck fetches from the web."""
    problems = []
    for lesson in sorted(html_root.glob("*/lessons/*.html")):
        deck = lesson.parent.parent / "slides" / lesson.name
        if not deck.is_file():
            problems.append(f"{lesson.relative_to(html_root)}: its slideshow {deck.relative_to(html_root)} is missing")
            continue
        text = deck.read_text(encoding="utf-8")
        if re.search(r'(?:src|href)="(?:https?:)?//', text):
            problems.append(f"{deck.relative_to(html_root)}: loads something from the web")
        for tag, src in re.findall(r'<(script|link)\b[^>]*?(?:src|href)="([^"#?]+)', text):
            if not (deck.parent / src).is_file():
                problems.append(f"{deck.relative_to(html_root)}: its {tag} {src} is missing")
    return problems


def missing_guides(html_root: Path = HTML) -> list[str]:
    """Every language has the teacher's guide (tools/website/guide.py), its home page links it, and
    it links every lesson page of its language and that lesson's slideshow (broken_links checks
    that each link resolves)."""
    problems = []
    for lang in LANGS:
        guide = html_root / lang / "teaching.html"
        if not guide.is_file():
            problems.append(f"{lang}/teaching.html: the teacher's guide is missing")
            continue
        home = html_root / lang / "index.html"
        if home.is_file() and "teaching.html" not in {urlsplit(link).path for link in parse(home).links}:
            problems.append(f"{lang}/index.html: does not link the teacher's guide teaching.html")
        links = {urlsplit(link).path for link in parse(guide).links}
        for lesson in sorted((html_root / lang / "lessons").glob("*.html")):
            for wanted in (f"lessons/{lesson.name}", f"slides/{lesson.name}"):
                if wanted not in links:
                    problems.append(f"{lang}/teaching.html: does not link {wanted}")
    return problems


def all_problems(html_root: Path = HTML) -> list[str]:
    from tools.website.font import missing_glyphs

    problems = (broken_links(html_root) + missing_figures(html_root) + repeated_figures(html_root)
                + wrong_languages(html_root) + missing_slideshows(html_root) + missing_guides(html_root))
    lacking = missing_glyphs(html_root)
    if lacking:
        problems.append(f"{len(lacking)} Chinese characters have no glyph in the site's fonts "
                        f"({''.join(lacking[:40])}): run `python -m tools.website.font`")
    return problems
