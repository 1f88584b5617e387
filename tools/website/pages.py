"""Write the Sphinx source tree of one language: home, glossary, lessons, exercises and the
teacher's guide (tools/website/guide.py).

Every language has the same page paths (``lessons/NN_topic``, ``exercises/NN_name``), so the
language switcher links to the same path under another language's root. Lessons come from their
executed copies (with figures); an exercise page is the student notebook with each filled-in cell
followed by the solution's cell, collapsed, run with its outputs.
"""
from __future__ import annotations

import copy
import hashlib
import html
import re
import shutil
from pathlib import Path

import nbformat

from tools.course_maps import HOME_TEXT, MAP_END, MAP_START, READMES
from tools.website import EXECUTED, HTML_LANG, LANG_NAMES, LANGS, ROOT, SOURCES
from tools.website.execute import FALLBACK_TAG
from tools.website.guide import PAGE as GUIDE_PAGE, guide_page
from tools.website.ui_words import write_search_translations
from tools.website.words import word


def language_nav(lang: str, page: str) -> str:
    """Links to the same page in the other languages (``page`` like ``lessons/00_x``)."""
    up = "../" * (page.count("/") + 1)
    links = []
    for other in LANGS:
        name = html.escape(LANG_NAMES[other])
        if other == lang:
            links.append(f'<strong lang="{HTML_LANG[other]}">{name}</strong>')
        else:
            links.append(f'<a href="{up}{other}/{page}.html" hreflang="{HTML_LANG[other]}" '
                         f'lang="{HTML_LANG[other]}">{name}</a>')
    return (f'<nav class="course-languages" aria-label="{html.escape(word(lang, "languages"))}">'
            f'{html.escape(word(lang, "languages"))}{"：" if lang == "zh" else ": "}'
            + " · ".join(links) + "</nav>")


def quick_start(lang: str) -> str:
    """The README's two commands (its first ``bash`` block), as the README gives them."""
    text = (ROOT / READMES[lang]).read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, flags=re.S)
    if not block:
        raise ValueError(f"{READMES[lang]} has no ```bash block with the quick-start commands")
    return block.group(1).rstrip("\n")


def run_box(lang: str, notebook: str, solution: str | None = None) -> str:
    """The "run this lesson" admonition: the README's commands, then the notebook's path; for an
    exercise, the notebook to fill in first and then where its worked solution is."""
    title, opener = ("run_exercise_title", "run_exercise_open") if solution else ("run_title", "run_open")
    stop = "。" if lang == "zh" else "."
    extra = f" {word(lang, 'run_exercise_solution')} `{solution}`{stop}" if solution else ""
    return (f"````{{admonition}} {word(lang, title)}\n:class: course-run\n\n"
            f"{word(lang, 'run_text')}\n\n```bash\n{quick_start(lang)}\n```\n\n"
            f"{word(lang, opener)} `{notebook}`{stop}{extra}\n````")


def markdown(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text)


def image_digest(output) -> str | None:
    data = output.get("data", {})
    for mime in ("image/png", "image/jpeg", "image/gif", "image/svg+xml"):
        if mime in data:
            content = data[mime] if isinstance(data[mime], str) else "".join(data[mime])
            return hashlib.sha256(content.encode()).hexdigest()
    return None


def with_widget_notes(cells: list, lang: str) -> list:
    """Each figure once per page: a widget's first picture is often the same image as the static
    figure beside it (one for JupyterLab, one for a static view), and a page shows it once. After
    each cell whose outputs stood in for a widget, say that it is interactive when run."""
    out, seen = [], set()
    for cell in cells:
        out.append(cell)
        if cell.cell_type != "code":
            continue
        interactive = any(o.get("metadata", {}).get(FALLBACK_TAG) for o in cell.outputs)
        kept = []
        for output in cell.outputs:
            digest = image_digest(output)
            if digest is None or digest not in seen:
                kept.append(output)
            seen.add(digest)
        cell.outputs = kept
        if interactive:
            out.append(markdown(f'<p class="course-widget-note">{html.escape(word(lang, "widget_note"))}</p>'))
    return out


def framed(nb: nbformat.NotebookNode, lang: str, page: str, box: str) -> nbformat.NotebookNode:
    """Drop the "generated from" banner; put the switcher first, the run box after the title."""
    nb = copy.deepcopy(nb)
    cells = nb.cells[1:]
    title = next(i for i, c in enumerate(cells) if c.cell_type == "markdown")
    cells = ([markdown(language_nav(lang, page))] + cells[title:title + 1] + [markdown(box)]
             + cells[:title] + cells[title + 1:])
    nb.cells = with_widget_notes(cells, lang)
    for i, cell in enumerate(nb.cells):
        cell.id = f"site-{i}"
    nb.metadata.pop("widgets", None)
    return nb


def lesson_page(lang: str, executed: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(executed, as_version=4)
    path = f"notebooks/{lang}/{executed.name}"
    slides = (f'<p class="course-slides">{html.escape(word(lang, "slides"))} '
              f'<a href="../slides/{executed.stem}.html">{html.escape(word(lang, "slides_link"))}</a></p>')
    return framed(nb, lang, f"lessons/{executed.stem}", run_box(lang, path) + "\n\n" + slides)


def exercise_page(lang: str, student: nbformat.NotebookNode, solution: nbformat.NotebookNode,
                  stem: str) -> nbformat.NotebookNode:
    """The student's notebook; after each cell with a gap, the solution's cell collapsed."""
    if len(student.cells) != len(solution.cells):
        raise ValueError(f"exercise {stem} ({lang}): student and solution notebooks have "
                         f"{len(student.cells)} and {len(solution.cells)} cells; rebuild them "
                         "with `python -m tools.build_notebooks`")
    cells = []
    for mine, theirs in zip(student.cells, solution.cells):
        if mine.cell_type == "code" and mine.source != theirs.source:
            gap = copy.deepcopy(mine)
            gap.outputs, gap.execution_count = [], None
            answer = copy.deepcopy(theirs)
            answer.metadata.setdefault("tags", []).append("hide-cell")
            answer.metadata["mystnb"] = {"code_prompt_show": word(lang, "solution_show"),
                                         "code_prompt_hide": word(lang, "solution_hide")}
            cells += [gap, answer]
        else:
            cells.append(theirs)
    nb = copy.deepcopy(solution)
    nb.cells = cells
    box = run_box(lang, f"exercises/{lang}/{stem}.ipynb", f"exercises/{lang}/solutions/{stem}.ipynb")
    return framed(nb, lang, f"exercises/{stem}", box)


def readme_map(lang: str) -> str:
    """The README's course map as an HTML table whose links point at this website's pages."""
    text = (ROOT / READMES[lang]).read_text(encoding="utf-8")
    table = text.split(MAP_START, 1)[1].split(MAP_END, 1)[0].strip().splitlines()
    link = re.compile(r"\[([^\]]+)\]\((notebooks|exercises)/(\w+)/([\w.]+)\.ipynb\)")

    def cell(text: str) -> str:
        def to_page(m):
            kind = "lessons" if m.group(2) == "notebooks" else "exercises"
            return (f'<a href="../{m.group(3)}/{kind}/{m.group(4)}.html" '
                    f'hreflang="{HTML_LANG[m.group(3)]}">{html.escape(m.group(1))}</a>')
        out, i = [], 0
        for m in link.finditer(text):     # a " · " between links stays with the link before it
            out.append(breakable(html.escape(text[i:m.start()]).replace("`", "").replace(" · ", "\u00a0· ")))
            out.append(to_page(m))
            i = m.end()
        out.append(breakable(html.escape(text[i:]).replace("`", "")))
        return "".join(out).strip()

    rows = [[c for c in line.strip().strip("|").split("|")] for line in table if not line.startswith("|---")]
    head = "".join(f"<th>{cell(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>" for row in rows[1:])
    return f'<table class="course-map"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


# A name of three CamelCase parts or more (MultiWorkerMirroredStrategy): the widest word of a
# home table, which on a phone would squeeze the other columns or break where it happens to end.
LONG_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+){2,}\b")


def breakable(text: str) -> str:
    """Long API names with a <wbr> between their parts (a phone may break a line there only);
    not inside a code span, where the tag would show."""
    parts = text.split("`")
    for i in range(0, len(parts), 2):      # the even parts are outside code spans
        parts[i] = LONG_NAME.sub(lambda m: re.sub(r"(?<=[a-z])(?=[A-Z])", "<wbr>", m.group(0)), parts[i])
    return "`".join(parts)


def home_page(lang: str, home: nbformat.NotebookNode, toc: list[str]) -> str:
    title, intro, *_ = HOME_TEXT[lang]
    table = breakable(home.cells[1].source)
    table = re.sub(r"\]\((\d\d_\w+)\.ipynb\)", r"](lessons/\1.ipynb)", table)
    table = re.sub(rf"\]\(\.\./\.\./exercises/{lang}/(\w+)\.ipynb\)", r"](exercises/\1.ipynb)", table)
    tree = "\n".join(toc)
    return (f"{language_nav(lang, 'index')}\n\n{title}\n\n{intro}\n\n{table}\n\n"
            f"## {word(lang, 'course_map')}\n\n{readme_map(lang)}\n\n{word(lang, 'for_teachers')}\n\n"
            f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n\n{tree}\nglossary\n{GUIDE_PAGE}\n```\n")


def glossary_page(lang: str) -> str:
    lines = (ROOT / "notebooks" / "GLOSSARY.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    table = "\n".join(lines[start:end]) + "\n"   # the terms; the writers' notes after it stay out
    return (f"{language_nav(lang, 'glossary')}\n\n# {word(lang, 'glossary')}\n\n"
            f"{word(lang, 'glossary_intro')}\n\n{table}")


def exercise_order(home: nbformat.NotebookNode, lang: str) -> list[str]:
    """The exercises in the order the home page's table lists them (02a before 02b)."""
    return re.findall(rf"exercises/{lang}/(\w+)\.ipynb", home.cells[1].source)


def write_language(lang: str) -> Path:
    """Write build/site/src/<lang>/ afresh; return it."""
    out = SOURCES / lang
    if out.exists():
        shutil.rmtree(out)
    (out / "lessons").mkdir(parents=True)
    (out / "exercises").mkdir()
    shutil.copytree(ROOT / "website" / "locales", out / "locales")
    write_search_translations(lang, out / "locales")
    home = nbformat.read(ROOT / "notebooks" / lang / "index.ipynb", as_version=4)
    order = exercise_order(home, lang)
    toc = []
    for executed in sorted((EXECUTED / lang / "lessons").glob("*.ipynb")):
        nbformat.write(lesson_page(lang, executed), out / "lessons" / executed.name)
        toc.append(f"lessons/{executed.stem}")
        number = executed.stem[:2]
        solutions = sorted((EXECUTED / lang / "solutions").glob(f"{number}_*.ipynb"),
                           key=lambda p: (order.index(p.stem) if p.stem in order else len(order), p.stem))
        for solution in solutions:
            student = nbformat.read(ROOT / "exercises" / lang / solution.name, as_version=4)
            page = exercise_page(lang, student, nbformat.read(solution, as_version=4), solution.stem)
            nbformat.write(page, out / "exercises" / solution.name)
            toc.append(f"exercises/{solution.stem}")
    (out / "index.md").write_text(home_page(lang, home, toc), encoding="utf-8")
    (out / "glossary.md").write_text(glossary_page(lang), encoding="utf-8")
    pages = set(toc) | {"glossary"}
    (out / f"{GUIDE_PAGE}.md").write_text(guide_page(lang, language_nav(lang, GUIDE_PAGE), pages), encoding="utf-8")
    return out
