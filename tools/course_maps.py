"""The course's maps: each language's home notebook, and the lesson table of every README.

Both are built from the lessons' own titles (their first heading), so adding a lesson updates
them; a test fails when a committed map is stale.
"""
from __future__ import annotations

import re

import nbformat

from tools.notebook_metadata import _cell_id, notebook_metadata

LANGS = ("en", "zh", "pt")


HOME_TEXT = {
    "en": ("# Distributed training with TensorFlow, on simulated hardware",
           "Every lesson runs TensorFlow's `tf.distribute` code on a simulated machine: "
           "`import sim.tf as tf` in place of `import tensorflow as tf`. Open a lesson, run it "
           "from the top, then try its exercise.",
           "| # | Lesson | Exercise |", "Other languages"),
    "zh": ("# 在模拟硬件上学习 TensorFlow 分布式训练",
           "每节课都在一台模拟机器上运行 TensorFlow 的 `tf.distribute` 代码：用 "
           "`import sim.tf as tf` 代替 `import tensorflow as tf`。打开一节课，从头运行，然后完成它的练习。",
           "| # | 课程 | 练习 |", "其他语言"),
    "pt": ("# Treinamento distribuído com TensorFlow, em hardware simulado",
           "Cada lição executa código `tf.distribute` do TensorFlow em uma máquina simulada: "
           "`import sim.tf as tf` no lugar de `import tensorflow as tf`. Abra uma lição, execute-a "
           "do início e depois faça o exercício.",
           "| # | Lição | Exercício |", "Outros idiomas"),
}


LIST_SEPARATOR = {"en": ", ", "zh": "、", "pt": ", "}


COLON = {"en": ": ", "zh": "：", "pt": ": "}


LANG_NAMES = {"en": "English", "zh": "简体中文", "pt": "Português"}


READMES = {"en": "README.md", "zh": "README.zh.md", "pt": "README.pt.md"}


MAP_START, MAP_END = "<!-- course-map:start -->", "<!-- course-map:end -->"


MAP_WORDS = {  # (lesson column header, "lesson" link text, "exercise" link text)
    "en": ("Lesson", "lesson", "exercise"),
    "zh": ("课程", "课程", "练习"),
    "pt": ("Lição", "lição", "exercício"),
}


def title_of(nb: nbformat.NotebookNode) -> str:
    """The first markdown heading, without its "NN · " number."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            m = re.search(r"^#+\s+(.+)$", cell.source, flags=re.M)
            if m:
                return re.sub(r"^\d+\s*·\s*", "", m.group(1).strip())
    return "?"


def home_notebook(lang: str, lessons: list[tuple[str, nbformat.NotebookNode]],
                  exercises: dict[str, list[tuple[str, nbformat.NotebookNode]]]) -> nbformat.NotebookNode:
    title, intro, header, others = HOME_TEXT[lang]
    rows = [header, "|---|---|---|"]
    for stem, nb in lessons:
        number = stem.split("_", 1)[0]
        ex_links = LIST_SEPARATOR[lang].join(   # by title: 02a before 02b
            f"[{title_of(ex)}](../../exercises/{lang}/{ex_stem}.ipynb)"
            for ex_stem, ex in sorted(exercises.get(number, []), key=lambda e: title_of(e[1])))
        rows.append(f"| {number} | [{title_of(nb)}]({stem}.ipynb) | {ex_links or '—'} |")
    links = " · ".join(f"[{LANG_NAMES[o]}](../{o}/index.ipynb)" for o in LANGS if o != lang)
    nb = nbformat.v4.new_notebook()
    nb.metadata = notebook_metadata({"language": lang, "source": "tools/build_notebooks.py",
                                     "variant": "home"})
    nb.cells = [nbformat.v4.new_markdown_cell(f"{title}\n\n{intro}"),
                nbformat.v4.new_markdown_cell("\n".join(rows)),
                nbformat.v4.new_markdown_cell(f"{others}{COLON[lang]}{links}")]
    for i, cell in enumerate(nb.cells):
        cell.id = _cell_id("home", lang, str(i))
    return nb


def course_map(readme_lang: str, titles: dict[str, dict[str, str]],
               exercises: dict[str, list[str]]) -> str:
    """The README's lesson table: one row per lesson, links in every language (README's first)."""
    order = [readme_lang] + [lang for lang in LANGS if lang != readme_lang]
    header = ["#", MAP_WORDS[readme_lang][0], *(LANG_NAMES[lang] for lang in order)]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for stem in sorted(titles):
        number = stem.split("_", 1)[0]
        cells = [number, titles[stem][readme_lang]]
        for lang in order:
            _, lesson_word, exercise_word = MAP_WORDS[lang]
            links = [f"[{lesson_word}](notebooks/{lang}/{stem}.ipynb)"]
            links += [f"[{exercise_word}](exercises/{lang}/{ex}.ipynb)" for ex in exercises.get(number, [])]
            cells.append(" · ".join(links))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def readme_with_map(text: str, table: str) -> str:
    if MAP_START not in text or MAP_END not in text:
        raise ValueError(f"README lacks the markers {MAP_START} ... {MAP_END}")
    head, rest = text.split(MAP_START, 1)
    _, tail = rest.split(MAP_END, 1)
    return f"{head}{MAP_START}\n{table}\n{MAP_END}{tail}"
