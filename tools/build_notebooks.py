"""Generate the course notebooks from their one-per-lesson sources.

    python -m tools.build_notebooks            # write inputs only (fast)
    python -m tools.build_notebooks --execute  # write, then execute and keep text outputs
    python -m tools.build_notebooks --only 01 --execute
    python -m tools.build_notebooks --check    # exit 1 if a committed notebook drifted

Sources are jupytext py:percent files: ``notebooks/src/NN_topic.py`` (lessons) and
``exercises/src/NN_topic.py`` (exercises). Markdown cells carry ``lang="en"|"zh"|"pt"``; code
cells carry none and are shared by the three languages. For each language the generator keeps
that language's markdown and every code cell, and puts first a banner and a code cell that calls
``sim.setup("<lang>")``. Exercises give a student version (solution regions between
``### BEGIN SOLUTION`` / ``### END SOLUTION`` replaced by a stub) and a solution version.
Each language also gets a home notebook, ``notebooks/<lang>/index.ipynb``, linking every lesson.

Execution (``--execute``) runs lessons and solutions with nbclient, then drops images (git stays
small; nbval ignores them anyway; a cell tagged ``keep-image`` keeps its image, e.g. the animated
GIF of lesson 02 that must play from the committed notebook) and timing metadata, so what is
committed is deterministic.

Every notebook carries the ``kernelspec`` and ``language_info`` that JupyterLab writes when it opens
the notebook with this environment's ``python3`` kernel (JupyterLab copies the kernel's spec and its
kernel_info reply into the metadata and marks the notebook modified only when they differ), so a
committed notebook opens clean.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "zh", "pt")
SOLUTION_BEGIN = "### BEGIN SOLUTION"
SOLUTION_END = "### END SOLUTION"

STUB = {
    "en": "# YOUR CODE HERE",
    "zh": "# 在此处编写你的代码",
    "pt": "# SEU CÓDIGO AQUI",
}
BANNER = {
    "en": "*Generated from `{source}`: edit the source, then run `make notebooks`.*",
    "zh": "*本笔记本由 `{source}` 生成：请修改源文件，然后运行 `make notebooks`。*",
    "pt": "*Gerado a partir de `{source}`: edite a fonte e execute `make notebooks`.*",
}
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
LANG_NAMES = {"en": "English", "zh": "简体中文", "pt": "Português"}
READMES = {"en": "README.md", "zh": "README.zh.md", "pt": "README.pt.md"}
MAP_START, MAP_END = "<!-- course-map:start -->", "<!-- course-map:end -->"
MAP_WORDS = {  # (lesson column header, "lesson" link text, "exercise" link text)
    "en": ("Lesson", "lesson", "exercise"),
    "zh": ("课程", "课程", "练习"),
    "pt": ("Lição", "lição", "exercício"),
}


KEEP_IMAGE_TAG = "keep-image"
# A widget's view lives only while its kernel does; its state is not saved, so a committed view
# would show "model not found" (and a new random model_id every build). The cell shows it when run.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@lru_cache(maxsize=None)
def kernel_metadata() -> dict:
    """The ``kernelspec`` and ``language_info`` JupyterLab writes for this environment's python3
    kernel: the spec's name/display_name/language, and ipykernel's kernel_info language_info."""
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    return {"kernelspec": {"display_name": spec.display_name, "language": spec.language,
                           "name": "python3"},
            "language_info": copy.deepcopy(dict(IPythonKernel.language_info))}


def notebook_metadata(course: dict) -> dict:
    return {**copy.deepcopy(kernel_metadata()), "course": course}


class SourceError(ValueError):
    """A lesson or exercise source breaks a rule of the one-source, three-languages format."""


@dataclass(frozen=True)
class Output:
    """One notebook the build writes."""
    path: Path
    notebook: nbformat.NotebookNode
    execute: bool


def read_source(path: Path) -> nbformat.NotebookNode:
    nb = jupytext.read(path, fmt="py:percent")
    check_source(nb, path)
    return nb


def check_source(nb: nbformat.NotebookNode, path: Path) -> None:
    """Every markdown cell has one language; each run of markdown has as many cells in each; code none."""
    run: list[str] = []

    def close_run(where: int) -> None:
        counts = {lang: run.count(lang) for lang in LANGS}
        if run and len(set(counts.values())) != 1:
            raise SourceError(
                f"{path.name}: the markdown before cell {where} has {counts} cells per language; "
                "each run of markdown cells needs the same number of cells in every language")
        run.clear()

    for i, cell in enumerate(nb.cells):
        lang = cell.metadata.get("lang")
        if cell.cell_type == "markdown":
            if lang not in LANGS:
                raise SourceError(f"{path.name}: markdown cell {i} needs lang=\"en\"|\"zh\"|\"pt\", "
                                  f"found {lang!r}")
            run.append(lang)
        else:
            close_run(i)
            if lang is not None:
                raise SourceError(f"{path.name}: code cell {i} has lang={lang!r}; code cells are "
                                  "shared by every language and carry no lang")
    close_run(len(nb.cells))


def _cell_id(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:12]


def _clean_metadata(cell: nbformat.NotebookNode) -> dict:
    meta = {k: v for k, v in cell.metadata.items() if k != "lang"}
    return meta


def strip_solutions(source: str, lang: str) -> str:
    """Replace each solution region by the localized stub, keeping its indentation."""
    out: list[str] = []
    inside = False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped == SOLUTION_BEGIN:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + STUB[lang])
            out.append(indent + "raise NotImplementedError()")
            inside = True
        elif stripped == SOLUTION_END:
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise SourceError(f"'{SOLUTION_BEGIN}' without '{SOLUTION_END}'")
    return "\n".join(out)


def keep_solutions(source: str) -> str:
    return "\n".join(l for l in source.splitlines()
                     if l.strip() not in (SOLUTION_BEGIN, SOLUTION_END))


def language_notebook(src: nbformat.NotebookNode, lang: str, rel_source: str,
                      variant: str = "lesson") -> nbformat.NotebookNode:
    """The notebook of one language (variant: lesson, student or solution)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = notebook_metadata({"language": lang, "source": rel_source, "variant": variant})
    key = f"{rel_source}/{lang}/{variant}"
    banner = nbformat.v4.new_markdown_cell(BANNER[lang].format(source=rel_source))
    setup = nbformat.v4.new_code_cell(f'import sim\nsim.setup("{lang}")')
    cells = [banner, setup]
    for cell in src.cells:
        lang_of = cell.metadata.get("lang")
        if cell.cell_type == "markdown" and lang_of != lang:
            continue
        new = copy.deepcopy(cell)
        new.metadata = _clean_metadata(cell)
        if new.cell_type == "code":
            if variant == "student":
                new.source = strip_solutions(new.source, lang)
            elif variant == "solution":
                new.source = keep_solutions(new.source)
            new.outputs = []
            new.execution_count = None
        cells.append(new)
    for i, cell in enumerate(cells):
        cell.id = _cell_id(key, str(i))
    nb.cells = cells
    return nb


def title_of(nb: nbformat.NotebookNode) -> str:
    """The first markdown heading after the banner, without its "NN · " number."""
    for cell in nb.cells[1:]:
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
        ex_links = ", ".join(
            f"[{title_of(ex)}](../../exercises/{lang}/{ex_stem}.ipynb)"
            for ex_stem, ex in exercises.get(number, []))
        rows.append(f"| {number} | [{title_of(nb)}]({stem}.ipynb) | {ex_links or '—'} |")
    links = " · ".join(f"[{LANG_NAMES[o]}](../{o}/index.ipynb)" for o in LANGS if o != lang)
    nb = nbformat.v4.new_notebook()
    nb.metadata = notebook_metadata({"language": lang, "source": "tools/build_notebooks.py",
                                     "variant": "home"})
    nb.cells = [nbformat.v4.new_markdown_cell(f"{title}\n\n{intro}"),
                nbformat.v4.new_markdown_cell("\n".join(rows)),
                nbformat.v4.new_markdown_cell(f"{others}: {links}")]
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
        raise SourceError(f"README lacks the markers {MAP_START} ... {MAP_END}")
    head, rest = text.split(MAP_START, 1)
    _, tail = rest.split(MAP_END, 1)
    return f"{head}{MAP_START}\n{table}\n{MAP_END}{tail}"


def readmes(outputs: list[Output]) -> dict[Path, str]:
    """Each README's text with its course map rebuilt from the lessons' titles."""
    titles: dict[str, dict[str, str]] = {}
    exercises: dict[str, list[str]] = {}
    for out in outputs:
        variant = out.notebook.metadata["course"]["variant"]
        lang = out.notebook.metadata["course"]["language"]
        if variant == "lesson":
            titles.setdefault(out.path.stem, {})[lang] = title_of(out.notebook)
        elif variant == "student" and lang == "en":
            exercises.setdefault(out.path.stem.split("_", 1)[0], []).append(out.path.stem)
    result = {}
    for lang, name in READMES.items():
        path = ROOT / name
        result[path] = readme_with_map(path.read_text(encoding="utf-8"),
                                       course_map(lang, titles, exercises))
    return result


def plan(only: str | None = None) -> list[Output]:
    """Every notebook the sources produce, in memory (nothing written)."""
    outputs: list[Output] = []
    lessons = sorted((ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py"))
    exercises = sorted((ROOT / "exercises" / "src").glob("[0-9][0-9]_*.py"))
    for lang in LANGS:
        built_lessons = []
        for path in lessons:
            rel = path.relative_to(ROOT).as_posix()
            nb = language_notebook(read_source(path), lang, rel)
            built_lessons.append((path.stem, nb))
            outputs.append(Output(ROOT / "notebooks" / lang / f"{path.stem}.ipynb", nb, True))
        built_ex: dict[str, list] = {}
        for path in exercises:
            rel = path.relative_to(ROOT).as_posix()
            src = read_source(path)
            student = language_notebook(src, lang, rel, "student")
            solution = language_notebook(src, lang, rel, "solution")
            built_ex.setdefault(path.stem.split("_", 1)[0], []).append((path.stem, student))
            outputs.append(Output(ROOT / "exercises" / lang / f"{path.stem}.ipynb", student, False))
            outputs.append(Output(ROOT / "exercises" / lang / "solutions" / f"{path.stem}.ipynb",
                                  solution, True))
        outputs.append(Output(ROOT / "notebooks" / lang / "index.ipynb",
                              home_notebook(lang, built_lessons, built_ex), False))
    if only:
        outputs = [o for o in outputs if o.path.name.startswith(only) or o.path.name == "index.ipynb"]
    return outputs


def inputs_of(nb: nbformat.NotebookNode) -> list[tuple]:
    """What the source determines: cell types, sources and tags (not outputs)."""
    return [(c.cell_type, c.source, tuple(c.metadata.get("tags", ()))) for c in nb.cells]


def drifted(outputs: list[Output]) -> list[str]:
    """Committed notebooks whose inputs (or metadata) differ from what their source builds."""
    problems = []
    for out in outputs:
        shown = out.path.relative_to(ROOT) if out.path.is_relative_to(ROOT) else out.path
        if not out.path.exists():
            problems.append(f"{shown}: missing (run `make notebooks`)")
            continue
        committed = nbformat.read(out.path, as_version=4)
        if inputs_of(committed) != inputs_of(out.notebook):
            problems.append(f"{shown}: differs from its source "
                            "(edit the source in notebooks/src or exercises/src, then `make notebooks`)")
        elif committed.metadata != out.notebook.metadata:
            problems.append(f"{shown}: its metadata differ from what JupyterLab writes when it opens "
                            "the notebook, so it would open modified (run `make notebooks`)")
    return problems


def stale_readmes(outputs: list[Output]) -> list[str]:
    """READMEs whose course map differs from what the full plan builds."""
    return [f"{path.name}: course map is stale (run `make notebooks`)"
            for path, text in readmes(outputs).items() if path.read_text(encoding="utf-8") != text]


def coalesce_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks into one output: how a kernel splits a stream
    depends on timing, so the committed outputs would otherwise change from run to run."""
    joined: list = []
    for output in outputs:
        if (output.get("output_type") == "stream" and joined
                and joined[-1].get("output_type") == "stream" and joined[-1]["name"] == output["name"]):
            joined[-1]["text"] = "".join(joined[-1]["text"]) + "".join(output["text"])
        else:
            joined.append(output)
    return joined


def execute(nb: nbformat.NotebookNode, cwd: Path, timeout: int = 600) -> nbformat.NotebookNode:
    """Run a notebook, then keep only deterministic text outputs."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(cwd)}}, record_timing=False,
                            allow_errors=False)
    client.execute()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        cell.outputs = coalesce_streams([o for o in cell.outputs if WIDGET_VIEW not in o.get("data", {})])
        keep_images = KEEP_IMAGE_TAG in cell.metadata.get("tags", ())
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data and not keep_images:
                for mime in [m for m in data if m.startswith("image/")]:
                    del data[mime]
            output.get("metadata", {}).clear() if "metadata" in output else None
    nb.metadata.pop("widgets", None)
    nb.metadata.update(copy.deepcopy(kernel_metadata()))
    return nb


def keep_outputs(committed: nbformat.NotebookNode, nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` with the committed outputs when only its markdown changed (same code cells, same
    order): a wording fix needs no re-execution, since outputs depend on the code alone."""
    def code(book):
        return [c for c in book.cells if c.cell_type == "code"]
    old, new = code(committed), code(nb)
    if [inputs_of(nbformat.v4.new_notebook(cells=[c])) for c in old] != \
            [inputs_of(nbformat.v4.new_notebook(cells=[c])) for c in new]:
        return nb
    nb = copy.deepcopy(nb)
    for before, after in zip(old, code(nb)):
        after.outputs = before.get("outputs", [])
        after.execution_count = before.get("execution_count")
    return nb


def write(out: Output, run: bool) -> None:
    """Write one notebook; without ``run`` an up-to-date notebook keeps its executed outputs."""
    out.path.parent.mkdir(parents=True, exist_ok=True)
    nb = out.notebook
    if not run and out.path.exists():
        committed = nbformat.read(out.path, as_version=4)
        if inputs_of(committed) == inputs_of(nb):
            if committed.metadata == nb.metadata:
                return
            committed.metadata = nb.metadata      # keep the outputs, refresh the metadata
            nb = committed
        else:
            nb = keep_outputs(committed, nb)
    if run and out.execute:
        print(f"executing {out.path.relative_to(ROOT)}", flush=True)
        nb = execute(nb, out.path.parent)
    tmp = out.path.with_suffix(".ipynb.tmp")
    nbformat.write(nb, tmp)
    tmp.replace(out.path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--execute", action="store_true", help="execute lessons and solutions")
    parser.add_argument("--only", help="build only notebooks whose name starts with this (e.g. 01)")
    parser.add_argument("--check", action="store_true", help="report drift, write nothing")
    args = parser.parse_args(argv)
    outputs = plan(args.only)
    if args.check:
        problems = drifted(outputs) + ([] if args.only else stale_readmes(outputs))
        print("\n".join(problems) or "all notebooks match their sources")
        return 1 if problems else 0
    for out in outputs:
        write(out, args.execute)
    if not args.only:
        for path, text in readmes(outputs).items():
            path.write_text(text, encoding="utf-8")
    print(f"wrote {len(outputs)} notebooks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
