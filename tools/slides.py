"""A lesson as a live slideshow (RISE in JupyterLab): which cells are slides, from the one source.

A teacher projects a short deck, not the whole lesson: its title, its key figure, its classroom
demo and its summary. The source says which code cells are the figure and the demo, on the cell's
header line (``# %% slide="figure"``, ``# %% slide="demo"``); the title is the lesson's first
markdown cell and the summary starts at the cell of its last ``## `` heading. Every other cell is skipped by
the slideshow, though it runs as usual: run all cells, then start the slideshow (Alt+R, or the
toolbar's slideshow button).
"""
from __future__ import annotations

import nbformat

SOURCE_KEY = "slide"           # the cell metadata key a source sets: "figure" or "demo"
ROLES = ("figure", "demo")
# RISE's settings for every lesson: long cells scroll rather than overflow (RISE's default size is
# what a 1280x720 projector shows legibly: seen in Chromium; a smaller deck size cut code cells off).
RISE = {"scroll": True, "transition": "none", "start_slideshow_at": "beginning"}


class SlideError(ValueError):
    """A lesson source marks its slides in a way the build cannot use."""


def _summary_start(cells: list[nbformat.NotebookNode]) -> int | None:
    headings = [i for i, c in enumerate(cells) if c.cell_type == "markdown"
                and any(line.startswith("## ") for line in c.source.splitlines())]
    return headings[-1] if headings else None


def mark_slides(cells: list[nbformat.NotebookNode], name: str) -> None:
    """Give every cell of one language's lesson its ``slideshow`` metadata (in place) and drop the
    source's ``slide`` key."""
    roles = {i: c.metadata.pop(SOURCE_KEY) for i, c in enumerate(cells) if SOURCE_KEY in c.metadata}
    for i, role in roles.items():
        if role not in ROLES or cells[i].cell_type != "code":
            raise SlideError(f"{name}: cell {i} has slide={role!r}; a code cell may be "
                             f"slide=\"figure\" or slide=\"demo\"")
    title = next((i for i, c in enumerate(cells) if c.cell_type == "markdown"), None)
    summary = _summary_start(cells)
    if title is None or summary is None or summary == title:
        raise SlideError(f"{name}: a lesson needs a title cell and a closing '## ' summary section")
    for i, cell in enumerate(cells):
        if i in roles or i in (title, summary):
            kind = "slide"
        elif i > summary and cell.cell_type == "markdown":
            kind = "-"                   # the rest of the summary, on the same slide
        else:
            kind = "skip"
        cell.metadata["slideshow"] = {"slide_type": kind}


def drop_slide_keys(cells: list[nbformat.NotebookNode]) -> None:
    """Exercises are not slideshows: their source carries no slide marks, and none leak through."""
    for cell in cells:
        cell.metadata.pop(SOURCE_KEY, None)


def slides_of(nb: nbformat.NotebookNode) -> list:
    """Each cell's slideshow metadata (it does not change what a cell prints; the drift check reads it)."""
    return [c.metadata.get("slideshow") for c in nb.cells]


def slide_roles(nb: nbformat.NotebookNode) -> list[str]:
    """What the slideshow shows, in order: 'title', 'figure', 'demo', 'summary' (for tests)."""
    cells = nb.cells
    summary = _summary_start(cells)
    shown = []
    for i, cell in enumerate(cells):
        if cell.metadata.get("slideshow", {}).get("slide_type") != "slide":
            continue
        if cell.cell_type == "markdown":
            shown.append("summary" if i == summary else "title")
        else:
            shown.append("code")
    return shown
