"""Running an exercise with a given answer cell, in this process (no nbgrader, no kernel)."""
from __future__ import annotations

from tools.assignments import assignment_notebook


def answer_cell(stem: str, lang: str = "en"):
    """The answer (solution) cell of an exercise's nbgrader source notebook."""
    cells = [c for c in assignment_notebook(stem, lang).cells if c.metadata["nbgrader"]["solution"]]
    assert len(cells) == 1, f"{stem}: one answer cell expected, found {len(cells)}"
    return cells[0]


def run_with_answer(stem: str, answer: str, lang: str = "en") -> None:
    """Execute the exercise's cells in order, with ``answer`` as its answer cell; the graded cell
    raises what it raises under nbgrader (ExerciseFailed for a wrong answer)."""
    namespace: dict = {}
    for cell in assignment_notebook(stem, lang).cells:
        if cell.cell_type != "code":
            continue
        source = answer if cell.metadata["nbgrader"]["solution"] else cell.source
        exec(compile(source, f"<{stem} cell>", "exec"), namespace)
